/**
 * startDriftDetection — drift detection wired in the bot process (roles `bot` and `serve`: the process that has the
 * Applications and their renderer, Slack, and the queue's producer; a worker-only process does not post). The
 * runtime is src/drift runDriftDetection; here each of its ports gets its adapter:
 *
 * - the cluster: the process's live-state cache of each cluster (src/kube createClusterCaches: one list+watch per
 *   kind, shared with `/sync diff` and resource health), through the same `clusters:` mapping as the worker;
 * - episode state, the interval lease, the change-driven checks' claims, the notices' refs and pending approvals:
 *   Redis under the queue prefix
 *   (one connection, closed by close());
 * - the notices of an episode (notify, resolved) and a self-heal sync's header: the Slack drift notices
 *   (src/slack/reporters/drift-notices.ts createDriftNotices, createSelfHealAnnouncer); the self-heal sync itself
 *   is src/drift's to request, on the queue's producer, audited in the Application's audit log;
 * - `on-health-degraded`: noticeDegradedHealth, judged with the worker's health scripts (scriptedHealthSource:
 *   wavesync.yaml's and the destination's argocd-cm), posted through the Slack approval messenger, paced per channel
 *   across processes;
 * - metrics: the Prometheus `driftChecked`.
 */
import { randomUUID } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { ApplicationsFromSettings } from '../applications/index.js';
import type { Config } from '../config.js';
import type { Application } from '../domain/index.js';
import {
  createDriftAutomationPolicy,
  createLiveStateCaches,
  type DriftMetrics,
  noticeDegradedHealth,
  type RunningDriftDetection,
  redisDriftChangeClaim,
  redisDriftLease,
  redisDriftNoticeRefs,
  redisDriftStateStore,
  runDriftDetection,
} from '../drift/index.js';
import {
  createApprovalStore,
  createAuditLog,
  driftChannelOf,
  redisNotificationMarks,
} from '../environments/index.js';
import { ARGOCD_CM_REUSE_MS, scriptedHealthSource } from '../health-scripts/index.js';
import type { ClusterCaches } from '../kube/cluster-caches.js';
import type { Logger } from '../logger.js';
import { pinnedRevision, redisPromotionStore } from '../promotion/index.js';
import type { SyncQueueClient } from '../queue/index.js';
import { createRedisClient } from '../queue/index.js';
import type { Settings } from '../settings/index.js';
import { createDriftNotices, createSelfHealAnnouncer } from '../slack/reporters/drift-notices.js';
import { createSlackApprovalMessenger } from '../slack/reporters/slack-approval-messenger.js';
import { createSharedChannelPacer } from '../thread/index.js';

export interface DriftDetectionWiringDeps {
  config: Pick<Config, 'redis' | 'kubeconfig' | 'queue'>;
  settings: Settings;
  apps: ApplicationsFromSettings;
  web: WebClient;
  queue: Pick<SyncQueueClient, 'enqueueSync' | 'applicationStatus' | 'history' | 'jobStatus'>;
  metrics?: DriftMetrics;
  /** The process's live-state caches (createClusterCaches), shared with the diff and resource health. */
  clusters: ClusterCaches;
  logger: Logger;
  now?: () => Date;
}

/**
 * Start drift detection (the interval unless `defaults.driftDetection.enabled: false`). close() stops the interval,
 * waits for a tick in progress and closes the Redis connection.
 */
export function startDriftDetection(deps: DriftDetectionWiringDeps): RunningDriftDetection {
  const { settings, apps, config } = deps;
  const prefix = config.queue.prefix;
  const logger = deps.logger.child({ component: 'drift' });
  const now = deps.now ?? (() => new Date());
  const redis = createRedisClient(config.redis, { maxRetriesPerRequest: 2 });
  redis.on('error', (err: Error) => logger.debug({ err: err.message }, 'drift redis error'));
  const audit = createAuditLog(redis, prefix);
  const promotionStore = redisPromotionStore(redis, prefix);
  // The worker's script source chain (wavesync.yaml's health: and the destination's argocd-cm); a cluster's
  // argocd-cm is read at most once a minute, not once per Application per check.
  const scripts = scriptedHealthSource(settings.health, settings.file, {
    git: apps.git,
    reuseMs: ARGOCD_CM_REUSE_MS,
    onNote: (note) => logger.debug({ note }, 'health scripts'),
  });
  const degradedDeps = {
    scriptedHealthFor: (app: Application) => scripts.forCluster(deps.clusters.clusterFor(app)),
    marks: redisNotificationMarks(redis, prefix),
    settings,
    queue: deps.queue,
    poster: createSlackApprovalMessenger(
      deps.web,
      createSharedChannelPacer({
        redis,
        prefix,
        onError: (err: unknown) =>
          logger.debug({ err }, 'shared channel pacing unavailable; paced per process'),
      }),
    ),
    onError: (err: unknown) => logger.warn({ err }, 'on-health-degraded notice not delivered'),
  };
  const policy = createDriftAutomationPolicy(settings, now);
  const slack = {
    client: deps.web,
    catalog: apps.registry,
    channelOf: (app: Application) => driftChannelOf(settings, app),
  };
  // Comparisons read one list+watch cache per cluster; a change to a tracked object asks for a comparison of the
  // Application tracking it (only that one), by the replica holding its change claim.
  const caches = createLiveStateCaches({
    clusterFor: (app) => deps.clusters.cacheFor(app),
    ...(settings.resourceTracking ? { tracking: settings.resourceTracking } : {}),
    check: (applications) => running.checkApps(applications),
  });
  const replicaId = randomUUID();
  const running = runDriftDetection({
    settings,
    applications: () => apps.registry.list(),
    render: (app, revision) =>
      apps.renderer.renderApplication(app, revision === undefined ? {} : { revision }),
    pinnedRevision: (app) => pinnedRevision(promotionStore, app.name),
    // Its changes ask for watch-driven checks; read through clusterFor (the cache, or the API server for an
    // Application whose ignoreDifferences read managedFields).
    clusterFor: (app) => {
      caches.watchChangesOf(app);
      return deps.clusters.clusterFor(app);
    },
    queue: deps.queue,
    approvals: createApprovalStore(redis, { prefix }),
    policy,
    notices: createDriftNotices({
      ...slack,
      refs: redisDriftNoticeRefs(redis, prefix),
      whyNotAutomatic: (app) => policy.whyNotAutomatic(app),
      logger,
    }),
    selfHeal: {
      announce: createSelfHealAnnouncer(slack),
      queue: deps.queue,
      audit: (entry) => audit.append(entry),
    },
    liveObjectsRead: (app, live) => noticeDegradedHealth(degradedDeps, app, live),
    store: redisDriftStateStore(redis, prefix),
    lease: redisDriftLease(redis, prefix, replicaId),
    claim: redisDriftChangeClaim(redis, prefix, replicaId),
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    now,
    logger,
  });
  return {
    tick: () => running.tick(),
    checkApps: (names) => running.checkApps(names),
    tickIfLeader: () => running.tickIfLeader(),
    async close() {
      caches.stop();
      await running.close();
      redis.disconnect();
    },
  };
}
