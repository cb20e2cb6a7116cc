/**
 * The WebClient wavesync uses outside Bolt listeners (the worker's reporter): rate-limited calls are rejected
 * (`rejectRateLimitedCalls`) so the reporter's own per-channel pacing decides when to retry, instead of
 * web-api pausing every call of the client (NOTES A3).
 */
import { WebClient } from '@slack/web-api';

export interface SlackWebClientOptions {
  botToken: string;
  /** Web API base URL; default Slack's (`https://slack.com/api/`). */
  apiUrl?: string;
  /** Retries of failed requests (network errors, 5xx); default 2. Tests pass 0. */
  retries?: number;
  /** Per-request timeout in ms; default 10 000. */
  timeoutMs?: number;
  /** The fetch WebClient uses (default the global one); the composition root wraps it to count calls. */
  fetch?: typeof fetch;
}

export function createSlackWebClient(options: SlackWebClientOptions): WebClient {
  return new WebClient(options.botToken, {
    ...(options.apiUrl ? { slackApiUrl: options.apiUrl } : {}),
    rejectRateLimitedCalls: true,
    retryConfig: { retries: options.retries ?? 2 },
    timeout: options.timeoutMs ?? 10_000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
