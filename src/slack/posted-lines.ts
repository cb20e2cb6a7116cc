/**
 * What a job's thread already holds: stable line key → ts of the Slack message that carries it. The thread
 * poster skips keys found here and records each key right after Slack answers, so a worker that resumes a job
 * (after a kill, a stall or a lock loss) does not post again the lines its engine re-announces.
 *
 * Redis layout: one HASH per job, `<prefix>:thread:posted:<jobId>` (key → ts), expiring `POSTED_LINES_TTL_S`
 * after its last write — as long as job records are kept (7 days). Past that a resumed job would post again.
 */
import type { RedisClient } from '../queue/redis-connections.js';

export interface PostedLines {
  /** Keys already posted in this job's thread (key → message ts). Throws when the store is unreachable. */
  load(): Promise<Map<string, string>>;
  /** Record `keys` as posted in the message `ts`. Throws when the store is unreachable. */
  record(keys: readonly string[], ts: string): Promise<void>;
}

/** Retention of a job's posted-lines record in seconds (7 days, like job records). */
export const POSTED_LINES_TTL_S = 7 * 24 * 3600;

/** The job's record in Redis (see the module comment for the layout). */
export function redisPostedLines(redis: RedisClient, prefix: string, jobId: string): PostedLines {
  const key = `${prefix}:thread:posted:${jobId}`;
  return {
    async load() {
      return new Map(Object.entries(await redis.hgetall(key)));
    },
    async record(keys, ts) {
      if (keys.length === 0) return;
      await redis
        .multi()
        .hset(key, Object.fromEntries(keys.map((k) => [k, ts])))
        .expire(key, POSTED_LINES_TTL_S)
        .exec();
    },
  };
}
