/**
 * What Bolt's HTTPReceiver does not check about a signed Slack request, checked before Bolt sees it (HTTP mode):
 * - the timestamp is integer seconds (Slack's `X-Slack-Request-Timestamp`), else 401;
 * - it is within five minutes of now **both ways** (Slack's replay window,
 *   https://docs.slack.dev/authentication/verifying-requests-from-slack; Slack's Python verifier uses
 *   `abs(now - ts) > 300`; Bolt 5.1.0 rejects only old ones, NOTES A1), else 401;
 * - the same signed request is accepted once: a request whose v0 signature is valid is remembered (a SHA-256 of
 *   its signature, which is itself the HMAC of the signed bytes) for as long as its timestamp can be accepted
 *   (`ts + 300 s - now`, plus a margin), in the replay store (src/queue's, in Redis) so every bot replica refuses it. A second delivery of the same
 *   bytes is answered 401 — except Slack's own re-delivery (`X-Slack-Retry-Num`), answered 200 with nothing done
 *   (the first delivery is being handled; a re-sent copy must not run twice either way).
 * The payload of a signed request is parsed as Bolt parses it and checked (`checkPayload`, slack-payloads.ts)
 * before the replay check: a malformed one is answered 400 with the problem, at once (no Redis round trip; it is
 * not remembered, as nothing comes of it), before Bolt sees it (Bolt itself answers `payload=null` with nothing
 * and an unhandled rejection, `"actions": null` with 500, an unknown type with 404 after 3 s).
 * A request with a bad signature is left to Bolt (401) and is not remembered, so nobody can block a request by
 * sending its signature first with other bytes. If the replay store cannot be reached the request is refused:
 * a replay check that cannot run fails closed — a slash command with 200 and an ephemeral "was not run: Redis is
 * unavailable, try again" (Slack shows the user that text; a bare 503 shows a generic "failed with the error
 * http_service_unavailable"), anything else with 503.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseForm } from 'node:querystring';
import type { HTTPReceiver } from '@slack/bolt';
import type { ReplayStore } from '../queue/index.js';

/** Seconds of allowed clock skew, each way. */
export const REPLAY_WINDOW_SECONDS = 300;
/** Largest body read (Bolt's default body limit). */
const BODY_LIMIT = 4 * 1024 * 1024;

export interface RequestGuardOptions {
  signingSecret: string;
  replays: ReplayStore;
  /** Clock in epoch ms (default Date.now); tests move it instead of sleeping. */
  now?: () => number;
  /** Why a parsed payload is refused (400), or undefined to hand it to Bolt. */
  checkPayload?(body: unknown): string | undefined;
  onReject?(reason: string, detail?: Record<string, unknown>): void;
}

/** Wrap `receiver`'s request listener for `endpoint` with the checks above. */
export function guardSlackRequests(
  receiver: HTTPReceiver,
  endpoint: string,
  options: RequestGuardOptions,
): void {
  const inner = receiver.requestListener;
  receiver.requestListener = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://x').pathname !== endpoint) {
      inner(req, res);
      return;
    }
    check(req, options).then(
      (verdict) => {
        if (verdict === 'pass') return inner(req, res);
        if (verdict === 'unavailable') return refuseUnavailable(req, res);
        if (typeof verdict === 'object') {
          res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
          return void res.end(`malformed Slack request: ${verdict.malformed}`);
        }
        res.writeHead(verdict).end();
      },
      (err: unknown) => {
        options.onReject?.('replay check unavailable', { err: String(err) });
        if (!res.headersSent) res.writeHead(503);
        res.end();
      },
    );
  };
}

/** A signed request whose replay check could not run: the slash command's user is told why, in words. */
function refuseUnavailable(req: IncomingMessage, res: ServerResponse): void {
  const body = (req as IncomingMessage & { rawBody?: Buffer }).rawBody?.toString('utf8') ?? '';
  const form = new URLSearchParams(body);
  const command = form.get('command');
  if (command === null) {
    res.writeHead(503).end();
    return;
  }
  const asked = `${command} ${form.get('text') ?? ''}`.trim().slice(0, 200);
  const text = `\`${asked}\` was not run: Redis is unavailable, so wavesync cannot take requests. Try again in a minute.`;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ response_type: 'ephemeral', text }));
}

async function check(
  req: IncomingMessage,
  options: RequestGuardOptions,
): Promise<'pass' | 'unavailable' | 200 | 401 | 413 | { malformed: string }> {
  const raw = header(req, 'x-slack-request-timestamp');
  if (raw === undefined) return 'pass'; // Bolt answers 401 for a missing header
  if (!/^\d{1,12}$/.test(raw)) {
    options.onReject?.('timestamp is not integer seconds', { timestamp: raw.slice(0, 40) });
    return 401;
  }
  const ts = Number(raw);
  const nowSec = Math.floor((options.now ?? Date.now)() / 1000);
  if (Math.abs(nowSec - ts) > REPLAY_WINDOW_SECONDS) {
    options.onReject?.('timestamp outside the five-minute window', { skewSeconds: ts - nowSec });
    return 401;
  }
  const body = await readBody(req);
  if (body === undefined) return 413;
  (req as IncomingMessage & { rawBody?: Buffer }).rawBody = body;
  const signature = header(req, 'x-slack-signature');
  if (signature === undefined || !validSignature(options.signingSecret, raw, body, signature)) return 'pass';
  // A malformed payload is refused before the replay store is asked: nothing can come of it, replayed or not, and
  // the answer does not wait for a Redis round trip (or for Redis at all).
  const problem = malformed(req, body, options);
  if (problem !== undefined) return problem;
  const digest = createHash('sha256').update(signature).digest('hex');
  const ttl = ts + REPLAY_WINDOW_SECONDS - nowSec + 60;
  let first: boolean;
  try {
    first = await options.replays.firstSeen(digest, ttl);
  } catch (err) {
    options.onReject?.('replay check unavailable', { err: String(err) });
    return 'unavailable';
  }
  if (first) return 'pass';
  const retry = header(req, 'x-slack-retry-num') !== undefined;
  options.onReject?.(retry ? 'Slack re-delivery of a request already taken' : 'replayed request', {
    ageSeconds: nowSec - ts,
  });
  return retry ? 200 : 401;
}

/** The problem of the body as Bolt would parse it (HTTPModuleFunctions.parseHTTPRequestBody), or undefined. */
function malformed(
  req: IncomingMessage,
  body: Buffer,
  options: RequestGuardOptions,
): { malformed: string } | undefined {
  if (!options.checkPayload) return undefined;
  const text = body.toString('utf8');
  let parsed: unknown;
  try {
    if (header(req, 'content-type') === 'application/x-www-form-urlencoded') {
      const form = parseForm(text);
      parsed = typeof form.payload === 'string' ? JSON.parse(form.payload) : form;
    } else {
      parsed = JSON.parse(text);
    }
  } catch {
    return { malformed: 'the body is neither a form nor JSON (payload= must hold JSON)' };
  }
  const problem = options.checkPayload(parsed);
  if (problem === undefined) return undefined;
  options.onReject?.('malformed payload', { problem });
  return { malformed: problem };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function validSignature(secret: string, ts: string, body: Buffer, signature: string): boolean {
  const expected = `v0=${createHmac('sha256', secret).update(`v0:${ts}:`).update(body).digest('hex')}`;
  const a = Buffer.from(expected);
  const b = Buffer.from(signature);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > BODY_LIMIT) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
