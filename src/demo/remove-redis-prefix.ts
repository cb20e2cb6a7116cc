/**
 * Delete every Redis key under a prefix (SCAN + UNLINK in batches), so a demo or test run leaves nothing behind in a
 * shared Redis. Only ever called with a prefix the run generated itself.
 */
import { once } from 'node:events';
import { Cluster, type Redis } from 'ioredis';
import { createRedisClient, type RedisConnectionOptions } from '../queue/index.js';

/**
 * Remove `${prefix}:*` from the Redis of `where` (a redis:// URL or connection options; on Cluster every master is
 * scanned); resolves with the number of keys removed.
 */
export async function removeRedisPrefix(
  where: string | RedisConnectionOptions,
  prefix: string,
): Promise<number> {
  if (!/^\{?[\w.-]+-[0-9a-f]{8}/.test(prefix))
    throw new Error(`refusing to remove keys of prefix "${prefix}"`);
  const redis = createRedisClient(typeof where === 'string' ? { url: where } : where, {
    maxRetriesPerRequest: 1,
  });
  let removed = 0;
  try {
    let nodes: Redis[] = [redis as Redis];
    if (redis instanceof Cluster) {
      // The node list is known once the cluster's slots were read.
      if (redis.status !== 'ready') await once(redis, 'ready');
      nodes = redis.nodes('master');
    }
    for (const node of nodes) removed += await removeFrom(node, prefix);
  } finally {
    redis.disconnect();
  }
  return removed;
}

async function removeFrom(redis: Redis, prefix: string): Promise<number> {
  let removed = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    // On Cluster the keys of one UNLINK must share a slot: they do, the prefix carries a {hash tag}.
    if (keys.length > 0) removed += await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
  return removed;
}
