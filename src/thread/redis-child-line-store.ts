/** The child-line store (./child-line-reporter.ts ChildLineStore) in Redis. */
import type { RedisClient } from '../queue/index.js';
import type { ChildLineStore } from './child-line-reporter.js';

/** How long a child line's ts is kept, in seconds (7 days, like job records). */
const CHILD_LINE_TTL_S = 7 * 24 * 3600;

/** The ChildLineStore in Redis: `<prefix>:aoa:line:<jobId>` → the line's message ts, kept CHILD_LINE_TTL_S. */
export function redisChildLineStore(redis: RedisClient, prefix: string): ChildLineStore {
  const key = (jobId: string) => `${prefix}:aoa:line:${jobId}`;
  return {
    async get(jobId) {
      return (await redis.get(key(jobId))) ?? undefined;
    },
    async set(jobId, ts) {
      await redis.set(key(jobId), ts, 'EX', CHILD_LINE_TTL_S);
    },
  };
}
