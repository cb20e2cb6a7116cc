/**
 * The demo needs a Redis (BullMQ is real, never mocked). checkRedis pings REDIS_URL once with a short timeout and,
 * when nothing answers, says exactly how to start one.
 */
import { Redis } from 'ioredis';

/** What to print when no Redis answers at `url`. */
export function redisHelp(url: string, reason: string): string {
  return [
    `No Redis answers at ${url} (${reason}).`,
    'wavesync queues syncs in Redis. Start one, then run the demo again:',
    '  apt-get install redis-server && redis-server --daemonize yes',
    'or, with Docker, from this repository:',
    '  docker compose up -d redis',
    'or point REDIS_URL at a Redis you have (the demo uses its own key prefix and removes it afterwards).',
  ].join('\n');
}

/** Resolves when Redis at `url` answers PING within `timeoutMs`; otherwise rejects with the reason. */
export async function pingRedis(url: string, timeoutMs = 1500): Promise<void> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } finally {
    redis.disconnect();
  }
}
