/**
 * Slack's chat.postMessage limit, "about one message per second per channel, short bursts tolerated", as a
 * token bucket per channel: `burst` tokens, refilled at one per `intervalMs`.
 */
export class ChannelRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly intervalMs: number;
  private readonly burst: number;

  constructor(intervalMs: number, burst: number) {
    this.intervalMs = intervalMs;
    this.burst = burst;
  }

  /** Take a token for `channel` at time `now` (ms). Returns 0 when allowed, else ms until a token is free. */
  take(channel: string, now: number): number {
    const bucket = this.buckets.get(channel) ?? { tokens: this.burst, at: now };
    const refill = this.intervalMs > 0 ? (now - bucket.at) / this.intervalMs : Number.POSITIVE_INFINITY;
    bucket.tokens = Math.min(this.burst, bucket.tokens + refill);
    bucket.at = now;
    this.buckets.set(channel, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) * this.intervalMs);
  }
}
