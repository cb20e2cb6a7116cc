/**
 * One chat call with the thread's failure policy: rate limited (Slack's 429) → wait Retry-After (the channel is
 * blocked in the pacer) and the channel's next slot, then try again; unreachable (Slack down, 5xx, network) →
 * retried with capped exponential backoff and jitter through an outage for up to `retentionMs` (default 10 min), so
 * a thread is completed once Slack recovers; refused (`{ok:false}`) is permanent and reported as undelivered (the
 * failures are the chat port's ChatError, ./chat.ts). Never throws.
 * A call whose answer was lost (client timeout) may have been done by Slack: retrying it can post twice — only an
 * outbox with a lookup by client key closes that (see docs/queue.md, "Slack delivery").
 */
import type { ChannelPacer } from './channel-pacer.js';
import { ChatError } from './chat.js';

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
/** How long one message is retried through a Slack outage before it is dropped (ms). */
const DEFAULT_RETENTION_MS = 10 * 60_000;
const MAX_BACKOFF_MS = 30_000;

/** Run `call` until it succeeds or fails permanently (or an outage outlasts `retentionMs`). */
export async function deliver<T>(
  call: () => Promise<T>,
  ctx: { channel: string; pacer: ChannelPacer; logger?: DeliveryLogger; what: string; retentionMs?: number },
): Promise<DeliveryResult<T>> {
  let limited = 0;
  let failures = 0;
  const giveUpAt = Date.now() + (ctx.retentionMs ?? DEFAULT_RETENTION_MS);
  for (let attempts = 1; ; attempts++) {
    try {
      return { ok: true, value: await call(), attempts };
    } catch (err) {
      const failure = err instanceof ChatError ? err.failure : undefined;
      if (failure?.kind === 'rate-limited' && ++limited <= MAX_RATE_LIMITED) {
        ctx.pacer.block(ctx.channel, failure.retryAfterMs);
        // The try again takes a slot of its own (after the block): posting in another post's slot earns it a 429.
        await ctx.pacer.acquire(ctx.channel);
        continue;
      }
      const transient = failure?.kind === 'unreachable';
      const waitMs = Math.min(MAX_BACKOFF_MS, 250 * 2 ** Math.min(++failures, 7));
      const jittered = Math.floor(waitMs / 2 + (Math.random() * waitMs) / 2);
      if (transient && Date.now() + jittered < giveUpAt) {
        await new Promise((resolve) => setTimeout(resolve, jittered));
        continue;
      }
      const error = err instanceof ChatError ? err.reason : (err as Error).message;
      ctx.logger?.warn({ channel: ctx.channel, what: ctx.what, error, attempts }, 'slack call failed');
      return { ok: false, attempts, error };
    }
  }
}
