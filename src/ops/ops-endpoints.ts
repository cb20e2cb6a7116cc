/**
 * createOpsEndpoints — the Redis-backed parts of the operator routes: a PING connection for /healthz, a BullMQ
 * Queue handle for queue depth in /metrics and for Bull Board (when `config.admin` is set).
 */
import { Queue } from 'bullmq';
import type { Config } from '../config.js';
import { createRedisClient, SYNC_QUEUE_NAME } from '../queue/index.js';
import { bullBoardRoute } from './bull-board-route.js';
import type { Metrics } from './metrics.js';
import { type OpsRoute, opsRoutes } from './ops-routes.js';

export interface OpsEndpoints {
  routes: OpsRoute[];
  close(): Promise<void>;
}

/** Build the routes for `role`; connects to Redis lazily and never throws for an unreachable one. */
export function createOpsEndpoints(input: {
  config: Pick<Config, 'redis' | 'queue' | 'admin'>;
  version: string;
  role: string;
  metrics: Metrics;
  /** `serve`: its worker thread's state for /healthz (OpsRoutesDeps.worker). */
  worker?: () => string;
}): OpsEndpoints {
  const { config } = input;
  const ping = createRedisClient(config.redis, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  ping.on('error', () => undefined);
  const queue = new Queue(SYNC_QUEUE_NAME, {
    connection: createRedisClient(config.redis, { maxRetriesPerRequest: 1, enableOfflineQueue: false }),
    prefix: config.queue.prefix,
  });
  queue.on('error', () => undefined);
  input.metrics.setJobCountsReader(() => queue.getJobCounts());
  const admin = config.admin ? bullBoardRoute([queue], config.admin) : undefined;
  const routes = opsRoutes({
    version: input.version,
    role: input.role,
    metrics: input.metrics,
    ...(input.worker ? { worker: input.worker } : {}),
    async pingRedis() {
      if (ping.status === 'wait' || ping.status === 'end') await ping.connect().catch(() => undefined);
      await ping.ping();
    },
    ...(admin ? { admin } : {}),
  });
  return {
    routes,
    async close() {
      await queue.close().catch(() => undefined);
      ping.disconnect();
    },
  };
}
