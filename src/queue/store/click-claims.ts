/**
 * First-click claims of a button whose click may start one thing only (a drift notice's Sync, a failed sync's
 * Roll back): the first click claims its key, by anyone, on any bot replica; later clicks learn who claimed it and
 * start nothing.
 */
import type { RedisClient } from './redis-connections.js';

/** Who clicked first (the Slack user id and name the queue records as initiator). */
export interface Clicker {
  userId: string;
  userName: string;
}

export interface ClickClaims {
  /** Claim `key` for `by`: resolves undefined when this call claimed it, else with the first clicker. */
  claim(key: string, by: Clicker): Promise<Clicker | undefined>;
  /** Give up a claim whose click started nothing, so the next click may try again. */
  release(key: string): Promise<void>;
}

/**
 * ClickClaims in Redis under `<base>:<key>` (SET NX PX `ttlMs`, value the clicker as JSON), shared by every bot
 * replica. Rejects when Redis is unreachable.
 */
export function redisClickClaims(redis: RedisClient, base: string, ttlMs: number): ClickClaims {
  const keyOf = (key: string) => `${base}:${key}`;
  return {
    async claim(key, by) {
      // Twice: a claim released between our SET and GET leaves nothing to read, and the retry takes it.
      for (let attempt = 0; attempt < 2; attempt++) {
        if ((await redis.set(keyOf(key), JSON.stringify(by), 'PX', ttlMs, 'NX')) === 'OK') return undefined;
        const raw = await redis.get(keyOf(key));
        if (raw) return JSON.parse(raw) as Clicker;
      }
      throw new Error(`the click claim ${key} keeps changing`);
    },
    async release(key) {
      await redis.del(keyOf(key));
    },
  };
}

/** ClickClaims in this process only (a single bot process without Redis, and unit tests). */
export function memoryClickClaims(): ClickClaims {
  const claims = new Map<string, Clicker>();
  return {
    async claim(key, by) {
      const first = claims.get(key);
      if (first) return first;
      claims.set(key, by);
      return undefined;
    },
    async release(key) {
      claims.delete(key);
    },
  };
}
