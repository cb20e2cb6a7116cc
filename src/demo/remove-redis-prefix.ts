/**
 * Delete every Redis key under a prefix (SCAN + UNLINK in batches), so a demo or test run leaves nothing behind in a
 * shared Redis. Only ever called with a prefix the run generated itself.
 */
import { Redis } from 'ioredis';

/** Remove `${prefix}:*`; resolves with the number of keys removed. */
export async function removeRedisPrefix(url: string, prefix: string): Promise<number> {
  if (!/^[\w.-]+-[0-9a-f]{8}/.test(prefix)) throw new Error(`refusing to remove keys of prefix "${prefix}"`);
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  let removed = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) removed += await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return removed;
}
