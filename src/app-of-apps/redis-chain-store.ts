/**
 * The AppOfAppsChainStore in Redis, shared by every worker of one installation (`prefix` = WAVESYNC_QUEUE_PREFIX,
 * as the queue uses). Keys, each kept `CHAIN_RETAIN_SECONDS` (7 days, like job records):
 * - `<prefix>:aoa:<parentJobId>:outcomes` — HASH child name → ChildOutcome as JSON;
 * - `<prefix>:aoa:<parentJobId>:announced`, `…:summary` — set once (SET NX EX).
 * It lives beside the runtime, as drift's Redis stores do, because the key layout is the feature's own state.
 */
import type { RedisClient } from '../queue/index.js';
import type { ChildOutcome } from './app-of-apps.js';
import type { AppOfAppsChainStore } from './app-of-apps-ports.js';

/** How long a chain's keys are kept, in seconds. */
const CHAIN_RETAIN_SECONDS = 7 * 24 * 3600;

/** The Redis store; rejects with ioredis' errors when Redis is unreachable. */
export function redisAppOfAppsChainStore(redis: RedisClient, prefix: string): AppOfAppsChainStore {
  const key = (parentJobId: string, what: string) => `${prefix}:aoa:${parentJobId}:${what}`;
  return {
    async once(parentJobId, milestone) {
      return (await redis.set(key(parentJobId, milestone), '1', 'EX', CHAIN_RETAIN_SECONDS, 'NX')) === 'OK';
    },
    async recordOutcome(parentJobId, child, outcome, { overwrite }) {
      const hash = key(parentJobId, 'outcomes');
      const multi = redis.multi();
      if (overwrite) multi.hset(hash, child, JSON.stringify(outcome));
      else multi.hsetnx(hash, child, JSON.stringify(outcome));
      const replies = await multi.expire(hash, CHAIN_RETAIN_SECONDS).hgetall(hash).exec();
      const all = (replies?.[2]?.[1] ?? {}) as Record<string, string>;
      return new Map(Object.entries(all).map(([n, json]) => [n, JSON.parse(json) as ChildOutcome]));
    },
  };
}
