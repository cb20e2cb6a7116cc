/**
 * Requests this process has already taken, by request key, for 60 s: a re-delivery of the same `/sync`
 * (X-Slack-Retry-Num, or a double delivery with a fresh trigger id) gets "already requested" instead of a
 * second header. Across processes the queue's deduplication (same requestKey within its window) is the guard.
 */
export class RecentRequests {
  private readonly seen = new Map<string, number>();
  private readonly ttlMs: number;

  constructor(ttlMs = 60_000) {
    this.ttlMs = ttlMs;
  }

  /** True when `key` was claimed within the window; otherwise claims it and returns false. */
  claim(key: string, now: number = Date.now()): boolean {
    for (const [k, at] of this.seen) if (now - at > this.ttlMs) this.seen.delete(k);
    if (this.seen.has(key)) return true;
    this.seen.set(key, now);
    return false;
  }

  /** Forget `key` (the request was not queued, so a retry may try again). */
  release(key: string): void {
    this.seen.delete(key);
  }
}
