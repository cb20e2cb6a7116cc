/**
 * A job's posted lines (./posted-lines.ts) in Redis. Layout: one HASH per job, `<prefix>:thread:posted:<jobId>`
 * (key → ts), expiring `POSTED_LINES_TTL_S` after its last write — as long as job records are kept (7 days). Past
 * that a resumed job would post again. The first message recorded for a key stays (HSETNX): a later one is reported
 * back so its poster can delete it.
 */
import type { RedisClient } from '../queue/index.js';
import type { PostedLines } from './posted-lines.js';

/** Retention of a job's posted-lines record in seconds (7 days, like job records). */
const POSTED_LINES_TTL_S = 7 * 24 * 3600;

/** HSETNX each key (ARGV[3..]) to ts ARGV[1]; returns [key, ts, …] of keys already held by another message. */
const RECORD = `
local taken = {}
for i = 3, #ARGV do
  if redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[1]) == 0 then
    local cur = redis.call('HGET', KEYS[1], ARGV[i])
    if cur ~= ARGV[1] then
      table.insert(taken, ARGV[i])
      table.insert(taken, cur)
    end
  end
end
redis.call('EXPIRE', KEYS[1], ARGV[2])
return taken`;

/** The job's record in Redis (see the module comment for the layout). */
export function redisPostedLines(redis: RedisClient, prefix: string, jobId: string): PostedLines {
  const key = `${prefix}:thread:posted:${jobId}`;
  return {
    async load() {
      return new Map(Object.entries(await redis.hgetall(key)));
    },
    async record(keys, ts) {
      if (keys.length === 0) return new Map();
      const taken = (await redis.eval(RECORD, 1, key, ts, POSTED_LINES_TTL_S, ...keys)) as string[];
      const earlier = new Map<string, string>();
      for (let i = 0; i + 1 < taken.length; i += 2) earlier.set(taken[i]!, taken[i + 1]!);
      return earlier;
    },
  };
}
