/**
 * One Slack call with the reporter's failure policy: 429 → wait Retry-After (the channel is blocked in the
 * pacer) and try again; request errors → a few retries with backoff; platform errors (`{ok:false}`) are
 * permanent and reported as undelivered. Never throws.
 */
import { ErrorCode, type WebAPICallError } from '@slack/web-api';
import type { ChannelPacer } from './channel-pacer.js';

export interface DeliveryLogger {
  warn(obj: object, msg: string): void;
}

export interface DeliveryResult<T> {
  ok: boolean;
  value?: T;
  /** Attempts made, 429s included. */
  attempts: number;
  error?: string;
}

const MAX_RATE_LIMITED = 20;
const MAX_REQUEST_ERRORS = 3;

/** Run `call` until it succeeds or fails permanently. */
export async function deliver<T>(
  call: () => Promise<T>,
  ctx: { channel: string; pacer: ChannelPacer; logger?: DeliveryLogger; what: string },
): Promise<DeliveryResult<T>> {
  let limited = 0;
  let failures = 0;
  for (let attempts = 1; ; attempts++) {
    try {
      return { ok: true, value: await call(), attempts };
    } catch (err) {
      const e = err as Partial<WebAPICallError> & { retryAfter?: number; data?: { error?: string } };
      if (e.code === ErrorCode.RateLimitedError && ++limited <= MAX_RATE_LIMITED) {
        const ms = Math.max(1, e.retryAfter ?? 1) * 1000;
        ctx.pacer.block(ctx.channel, ms);
        await new Promise((resolve) => setTimeout(resolve, ms));
        continue;
      }
      const transient = e.code === ErrorCode.RequestError || e.code === ErrorCode.HTTPError;
      if (transient && ++failures < MAX_REQUEST_ERRORS) {
        await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** failures));
        continue;
      }
      const error = e.data?.error ?? (err as Error).message;
      ctx.logger?.warn({ channel: ctx.channel, what: ctx.what, error, attempts }, 'slack call failed');
      return { ok: false, attempts, error };
    }
  }
}
