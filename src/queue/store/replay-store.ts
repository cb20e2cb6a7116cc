/**
 * The bot's memory of the signed Slack requests it accepted (src/slack/request-guard.ts checks their signature and
 * time, then asks here whether the same request was seen): like the click claims beside it, a once-only record
 * that every bot replica must share, kept on the queue's Redis under the queue's prefix.
 */
import type { RedisClient } from './redis-connections.js';

/** Where accepted requests are remembered. */
export interface ReplayStore {
  /** True the first time `digest` is seen (and remember it for `ttlSeconds`); false for a repeat. */
  firstSeen(digest: string, ttlSeconds: number): Promise<boolean>;
}

/** Remembered in Redis (`<prefix>:slack:seen:<digest>`, SET NX EX): one answer across bot replicas. */
export function redisReplayStore(redis: RedisClient, prefix: string): ReplayStore {
  return {
    async firstSeen(digest, ttlSeconds) {
      const key = `${prefix}:slack:seen:${digest}`;
      return (await redis.set(key, '1', 'EX', Math.max(1, Math.ceil(ttlSeconds)), 'NX')) === 'OK';
    },
  };
}

/** Remembered in this process only (tests, or a bot without Redis); expired entries are dropped as it goes. */
export function memoryReplayStore(now: () => number = Date.now): ReplayStore {
  const seen = new Map<string, number>();
  return {
    async firstSeen(digest, ttlSeconds) {
      const at = now();
      for (const [key, until] of seen) if (until <= at) seen.delete(key);
      if (seen.has(digest)) return false;
      seen.set(digest, at + ttlSeconds * 1000);
      return true;
    },
  };
}
