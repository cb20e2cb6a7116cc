/**
 * The demo needs a Redis (BullMQ is real, never mocked). pingRedis pings the configured Redis (one server,
 * Sentinel or Cluster) once with a short timeout and, when nothing answers, redisHelp says how to start one.
 */
import { createRedisClient, type RedisConnectionOptions } from '../queue/index.js';

/** What to print when no Redis answers at `where` (describeRedis). */
export function redisHelp(where: string, reason: string): string {
  return [
    `No Redis answers at ${where} (${reason}).`,
    'wavesync queues syncs in Redis. Start one, then run the demo again:',
    '  apt-get install redis-server && redis-server --daemonize yes',
    'or, with Docker, from this repository:',
    '  docker compose up -d redis',
    'or point REDIS_URL at a Redis you have (the demo uses its own key prefix and removes it afterwards),',
    'or REDIS_SENTINELS + REDIS_SENTINEL_MASTER at a Sentinel, or REDIS_CLUSTER_NODES at a Cluster (docs/deploy.md).',
  ].join('\n');
}

/** Resolves when the Redis of `options` answers PING within `timeoutMs`; otherwise rejects with the reason. */
export async function pingRedis(options: RedisConnectionOptions, timeoutMs = 1500): Promise<void> {
  const redis = createRedisClient(options, {
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  let lastError = 'no answer';
  redis.on('error', (err: Error) => {
    lastError = err.message;
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      redis.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${lastError} after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    redis.disconnect();
  }
}
