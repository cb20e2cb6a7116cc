/**
 * ioredis connections for the producer (fail fast) and for workers (wait and reconnect), per BullMQ's
 * production guide: https://docs.bullmq.io/guide/going-to-production and NOTES "Failure modes".
 * One factory (`createRedisClient`) for every topology: a single Redis (`url`), Redis Sentinel (`sentinels` +
 * `name`, ioredis asks the sentinels for the master and follows a failover) and Redis Cluster (`cluster.nodes`;
 * keys of one script must share a hash slot: give a `{braced}` prefix, see `clusterSafePrefix`).
 */
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';

/** A connection of any topology; both speak every command wavesync uses (BullMQ accepts both). */
export type RedisClient = Redis | Cluster;

/** A `host:port` of a sentinel or a cluster node. */
export interface RedisNode {
  host: string;
  port: number;
}

/**
 * Where Redis is: `{ url }` (redis:// or rediss://), `{ sentinels, name }` (Sentinel; `password` for the master
 * and replicas, `sentinelPassword` for the sentinels), `{ cluster: { nodes } }` (Cluster seed nodes; `password`
 * for every node), each with optional ioredis options.
 */
export type RedisConnectionOptions = RedisOptions & {
  url?: string;
  cluster?: { nodes: RedisNode[]; options?: Omit<ClusterOptions, 'redisOptions'> };
};

/** Which topology `options` names, for logs and docs: `single`, `sentinel` or `cluster`. */
export function redisTopologyOf(options: RedisConnectionOptions): 'single' | 'sentinel' | 'cluster' {
  if (options.cluster) return 'cluster';
  return options.sentinels?.length ? 'sentinel' : 'single';
}

/** A short description without secrets: the URL without its password, or the sentinels / cluster nodes. */
export function describeRedis(options: RedisConnectionOptions): string {
  if (options.cluster) return `Redis Cluster ${options.cluster.nodes.map(hostPort).join(',')}`;
  if (options.sentinels?.length)
    return `Redis Sentinel master "${options.name}" via ${options.sentinels.map((n) => hostPort(n as RedisNode)).join(',')}`;
  const url = new URL(options.url ?? 'redis://127.0.0.1:6379');
  url.password = '';
  return url.toString();
}

function hostPort(n: RedisNode): string {
  return `${n.host}:${n.port}`;
}

/**
 * On Redis Cluster every key one Lua script (or MULTI) touches must hash to one slot: a prefix without a
 * `{hash tag}` gets one (`bull` → `{bull}`), so all of an installation's keys live in one slot. Other topologies
 * keep the prefix as given.
 */
export function clusterSafePrefix(prefix: string, options: RedisConnectionOptions): string {
  if (!options.cluster || /\{[^}]+\}/.test(prefix)) return prefix;
  return `{${prefix}}`;
}

/**
 * The one place a Redis connection is made, for every topology. `overrides` are ioredis options for this role
 * (timeouts, offline queue); on Cluster they apply to each node connection, and the offline queue and retry
 * policy to the cluster too.
 */
export function createRedisClient(
  options: RedisConnectionOptions,
  overrides: RedisOptions = {},
): RedisClient {
  const { url, cluster, ...rest } = options;
  const merged: RedisOptions = { retryStrategy: reconnectDelayMs, ...rest, ...overrides };
  if (cluster) {
    const { retryStrategy: _perNode, ...nodeOptions } = merged;
    return new Cluster(cluster.nodes, {
      clusterRetryStrategy: reconnectDelayMs,
      ...(merged.enableOfflineQueue === undefined ? {} : { enableOfflineQueue: merged.enableOfflineQueue }),
      ...cluster.options,
      redisOptions: nodeOptions,
    });
  }
  return url ? new Redis(url, merged) : new Redis(merged);
}

/** Minimal logger shape (pino's `Logger` satisfies it). */
export interface QueueLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: QueueLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** Reconnect quickly (100 ms, growing to 2 s) so a restarted Redis is found again within seconds. */
function reconnectDelayMs(times: number): number {
  return Math.min(100 * 2 ** Math.min(times, 5), 2000);
}

function connect(
  options: RedisConnectionOptions,
  overrides: RedisOptions,
  logger: QueueLogger,
  role: string,
): RedisClient {
  const redis = createRedisClient(options, overrides);
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
): RedisClient {
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
): RedisClient {
  return connect(options, { maxRetriesPerRequest: null, enableOfflineQueue: true }, logger, role);
}

/** Close a connection politely, falling back to a hard disconnect when Redis does not answer in 1 s. */
export async function closeConnection(redis: RedisClient): Promise<void> {
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
