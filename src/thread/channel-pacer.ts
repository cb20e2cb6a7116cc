/** What a notice poster needs of a pacer: wait for the channel's next slot. */
export interface ChannelSlots {
  /** Claim the next slot of `channel` and wait for it; resolves when the post may be sent. */
  acquire(channel: string): Promise<void>;
}

/**
 * Per-channel pacing for chat.postMessage: Slack allows about one message per second per channel
 * (https://docs.slack.dev/apis/web-api/rate-limits, "Special": chat.postMessage). One pacer is shared by every
 * reporter of a process, so concurrent syncs posting to one channel take turns instead of earning 429s.
 */
export class ChannelPacer {
  protected readonly nextFreeAt = new Map<string, number>();
  protected readonly intervalMs: number;

  /** `intervalMs`: minimum spacing of posts to one channel (default 1000). */
  constructor(intervalMs = 1000) {
    this.intervalMs = intervalMs;
  }

  /** ms until `channel` may be posted to (0 = now). */
  msUntilFree(channel: string, now: number = Date.now()): number {
    return Math.max(0, (this.nextFreeAt.get(channel) ?? 0) - now);
  }

  /**
   * Claim the next slot of `channel` for a sync's header and wait for it. Here the same as acquire(); the pacer
   * shared through Redis (./redis-channel-pacer.ts) lets headers go before thread lines.
   */
  acquireHeader(channel: string): Promise<void> {
    return this.acquire(channel);
  }

  /** Claim the next slot of `channel` and wait for it; resolves when the post may be sent. */
  async acquire(channel: string): Promise<void> {
    const now = Date.now();
    const slot = Math.max(now, this.nextFreeAt.get(channel) ?? 0);
    this.nextFreeAt.set(channel, slot + this.intervalMs);
    if (slot > now) await new Promise((resolve) => setTimeout(resolve, slot - now));
  }

  /** Slack answered 429 with Retry-After: keep `channel` closed for `ms`. */
  block(channel: string, ms: number): void {
    const until = Date.now() + ms;
    this.nextFreeAt.set(channel, Math.max(until, this.nextFreeAt.get(channel) ?? 0));
  }
}
