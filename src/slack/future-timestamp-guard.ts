/**
 * Slack's replay window is five minutes in both directions (https://docs.slack.dev/authentication/verifying-requests-from-slack;
 * Slack's Python verifier uses `abs(now - ts) > 300`). Bolt 5.1.0 rejects only timestamps older than five
 * minutes (NOTES A1, verified), so this guard answers 401 to a request timestamped more than five minutes in the
 * future before Bolt sees it. Signature, staleness and missing headers stay Bolt's job.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HTTPReceiver } from '@slack/bolt';

/** Seconds of allowed clock skew, each way. */
export const REPLAY_WINDOW_SECONDS = 300;

export function guardFutureTimestamps(
  receiver: HTTPReceiver,
  endpoint: string,
  onReject: (skewSeconds: number) => void,
  now: () => number = Date.now,
): void {
  const inner = receiver.requestListener;
  receiver.requestListener = (req: IncomingMessage, res: ServerResponse) => {
    const skew = futureSkewSeconds(req, endpoint, now());
    if (skew > REPLAY_WINDOW_SECONDS) {
      onReject(skew);
      res.writeHead(401);
      res.end();
      return;
    }
    inner(req, res);
  };
}

function futureSkewSeconds(req: IncomingMessage, endpoint: string, nowMs: number): number {
  if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://x').pathname !== endpoint) return 0;
  const ts = Number(req.headers['x-slack-request-timestamp']);
  return Number.isFinite(ts) ? ts - Math.floor(nowMs / 1000) : 0;
}
