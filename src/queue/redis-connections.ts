/**
 * ioredis connections for the producer (fail fast) and for workers (wait and reconnect), per BullMQ's
 * production guide: https://docs.bullmq.io/guide/going-to-production and NOTES "Failure modes".
 */
import { Redis, type RedisOptions } from 'ioredis';

/** `{ url }` (redis:// or rediss://) plus optional ioredis options, or plain ioredis options. */
export type RedisConnectionOptions = RedisOptions & { url?: string };

/** Minimal logger shape (pino's `Logger` satisfies it). */
export interface QueueLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: QueueLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** Reconnect quickly (100 ms, growing to 2 s) so a restarted Redis is found again within seconds. */
export function reconnectDelayMs(times: number): number {
  return Math.min(100 * 2 ** Math.min(times, 5), 2000);
}

function connect(
  options: RedisConnectionOptions,
  overrides: RedisOptions,
  logger: QueueLogger,
  role: string,
): Redis {
  const { url, ...rest } = options;
  const merged: RedisOptions = { retryStrategy: reconnectDelayMs, ...rest, ...overrides };
  const redis = url ? new Redis(url, merged) : new Redis(merged);
  redis.on('error', (err: Error) => logger.debug({ err: err.message, role }, 'redis connection error'));
  return redis;
}

/**
 * Producer connection: no offline queue and a short connect/command timeout, so an enqueue while Redis is
 * down fails at once instead of hanging (`timeoutMs`, default 2000 ms).
 */
export function producerConnection(
  options: RedisConnectionOptions,
  logger: QueueLogger,
  timeoutMs = 2000,
): Redis {
  return connect(
    options,
    {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: timeoutMs,
      commandTimeout: timeoutMs,
    },
    logger,
    'producer',
  );
}

/** Worker (and blocking reader) connection: commands wait for a reconnect (`maxRetriesPerRequest: null`). */
export function workerConnection(
  options: RedisConnectionOptions,
  logger: QueueLogger,
  role = 'worker',
): Redis {
  return connect(options, { maxRetriesPerRequest: null, enableOfflineQueue: true }, logger, role);
}

/** Close a connection politely, falling back to a hard disconnect when Redis does not answer in 1 s. */
export async function closeConnection(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  const timer = setTimeout(() => redis.disconnect(), 1000);
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  } finally {
    clearTimeout(timer);
  }
}
