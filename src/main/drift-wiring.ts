/**
 * startDriftDetection — drift detection in the bot process (roles `bot` and `serve`: the process that has the
 * Applications and their renderer, Slack, and the queue's producer; a worker-only process does not post). Every
 * `defaults.driftDetection.intervalSeconds` (default 180 s, Argo CD's reconciliation timeout) each Application
 * with `syncPolicy.automated` is rendered and compared with its tracked live objects (read through the same
 * kubeconfig mapping as the worker), skipping Applications with a sync queued, running or waiting for approval,
 * and Applications never synced (no history entry in the queue). The episode state is in
 * Redis under the queue prefix, with an atomic transition, so several bot replicas post once per episode; a lease
 * (SET NX PX) lets one replica compare per interval, sparing the cluster the others' comparisons.
 */
import { randomUUID } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { ApplicationsFromSettings } from '../applications/index.js';
import type { Config } from '../config.js';
import type { Application } from '../domain/index.js';
import { ignoreDifferencesOf, listTrackedLiveObjects } from '../engine/index.js';
import {
  type ApprovalStore,
  autoSyncAllowed,
  createApprovalStore,
  createAuditLog,
  driftChannelOf,
  environmentNameOf,
} from '../environments/index.js';
import { createClusterProvider } from '../kube/cluster-provider.js';
import { createRetryingKubeCluster } from '../kube/retrying-cluster.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../ops/metrics.js';
import type { SyncQueueClient } from '../queue/index.js';
import { createRedisClient } from '../queue/store/redis-connections.js';
import type { Settings } from '../settings/index.js';
import { createDriftNotices } from '../slack/reporters/drift-notices.js';
import { createSharedChannelPacer } from '../slack/reporters/shared-channel-pacer.js';
import { createSlackApprovalMessenger } from '../slack/reporters/slack-approval-messenger.js';
import { noticeDegradedHealth } from './degraded-health-notices.js';
import {
  compareApplication,
  createDriftDetector,
  type DriftDetector,
  redisDriftLease,
  redisDriftNoticeRefs,
  redisDriftStateStore,
} from './index.js';

export interface DriftDetectionDeps {
  config: Pick<Config, 'redis' | 'kubeconfig' | 'queue'>;
  settings: Settings;
  apps: ApplicationsFromSettings;
  web: WebClient;
  queue: Pick<SyncQueueClient, 'enqueueSync' | 'applicationStatus' | 'history' | 'jobStatus'>;
  metrics?: Pick<Metrics, 'driftChecked'>;
  logger: Logger;
  now?: () => Date;
}

export interface RunningDriftDetection {
  /** Compare every automated Application now; joins a tick in progress. */
  tick(): Promise<void>;
  /** What each interval does: tick() only if this replica takes the interval's lease. */
  tickIfLeader(): Promise<boolean>;
  /** Stop the interval, wait for a tick in progress, close the Redis connection. */
  close(): Promise<void>;
}

/** Start the interval (unless `defaults.driftDetection.enabled: false`: then tick() still works, for tests). */
export function startDriftDetection(deps: DriftDetectionDeps): RunningDriftDetection {
  const { settings, apps, config } = deps;
  const logger = deps.logger.child({ component: 'drift' });
  const now = deps.now ?? (() => new Date());
  const redis = createRedisClient(config.redis, { maxRetriesPerRequest: 2 });
  redis.on('error', (err: Error) => logger.debug({ err: err.message }, 'drift redis error'));
  const approvals = createApprovalStore(redis, { prefix: config.queue.prefix });
  const audit = createAuditLog(redis, config.queue.prefix);
  const clusterFor = createClusterProvider({
    settings,
    kubeconfig: config.kubeconfig,
    createCluster: createRetryingKubeCluster,
  });
  const degradedDeps = {
    redis,
    prefix: config.queue.prefix,
    settings,
    queue: deps.queue,
    poster: createSlackApprovalMessenger(
      deps.web,
      createSharedChannelPacer({
        redis,
        prefix: config.queue.prefix,
        onError: (err: unknown) =>
          logger.debug({ err }, 'shared channel pacing unavailable; paced per process'),
      }),
    ),
    onError: (err: unknown) => logger.warn({ err }, 'on-health-degraded notice not delivered'),
  };
  // Applications whose last render was empty while live objects remain (read by the policy right after compare).
  const wouldWipeOut = new Set<string>();
  const compare = async (app: Application) => {
    const rendered = await apps.renderer.renderApplication(app);
    const live = await listTrackedLiveObjects(clusterFor(app), app.name);
    await noticeDegradedHealth(degradedDeps, app, live).catch((err: unknown) =>
      logger.warn({ err, application: app.name }, 'on-health-degraded not checked'),
    );
    if (rendered.targets.length === 0 && live.length > 0) wouldWipeOut.add(app.name);
    else wouldWipeOut.delete(app.name);
    const createNamespace = app.syncPolicy?.syncOptions?.includes('CreateNamespace=true') ?? false;
    const namespace = app.destination.namespace ?? 'default';
    const ignoreDifferences = ignoreDifferencesOf(app).rules;
    return compareApplication(rendered.targets, live, namespace, { createNamespace, ignoreDifferences })
      .differences;
  };
  const detector: DriftDetector = createDriftDetector({
    applications: () => apps.registry.list(),
    compare,
    autoSyncAllowed: (app) => !refusesEmpty(app, wouldWipeOut) && autoSyncAllowed(settings, app, now()),
    skipComparison: (app) => awaitingSync(deps.queue, approvals, app.name),
    onAction: createDriftNotices({
      client: deps.web,
      catalog: apps.registry,
      queue: deps.queue,
      refs: redisDriftNoticeRefs(redis, config.queue.prefix),
      channelOf: (app) => driftChannelOf(settings, app),
      audit: (entry) => audit.append(entry),
      whyNotAutomatic: (app) =>
        refusesEmpty(app, wouldWipeOut)
          ? 'selfHeal refused: the manifests are empty and prune would delete everything (automated.allowEmpty)'
          : whyNotAutomatic(settings, app, now()),
      logger,
    }),
    onChecked: (app, result) => deps.metrics?.driftChecked(app.name, result),
    store: redisDriftStateStore(redis, config.queue.prefix),
    lease: redisDriftLease(redis, config.queue.prefix, randomUUID()),
    now,
    logger,
  });
  const { intervalSeconds, enabled } = settings.defaults.driftDetection;
  if (enabled) detector.start(intervalSeconds * 1000);
  logger.info({ intervalSeconds, enabled }, 'drift detection ready');
  return {
    tick: () => detector.tick(),
    tickIfLeader: () => detector.tickIfLeader(intervalSeconds * 1000),
    async close() {
      await detector.stop();
      redis.disconnect();
    },
  };
}

/**
 * Whether drift detection leaves `application` alone this interval: it has never completed a sync (no entry in
 * the queue's history: a first sync is what brings it in sync, not a notice), or a sync of it is queued, running
 * or waiting for approval (the state is in flux). Argo CD compares such Applications too (the UI shows them
 * OutOfSync) and does not auto-sync one with an operation in progress; wavesync posts nothing for them.
 */
async function awaitingSync(
  queue: Pick<SyncQueueClient, 'applicationStatus' | 'history'>,
  approvals: Pick<ApprovalStore, 'hasPending'>,
  application: string,
): Promise<boolean> {
  const [line, history, pending] = await Promise.all([
    queue.applicationStatus(application),
    queue.history(application, 1),
    approvals.hasPending(application),
  ]);
  return line.length > 0 || history.length === 0 || pending;
}

/**
 * Argo CD's automated-sync safety net (controller/appcontroller.go autoSync, "auto-sync will wipe out all
 * resources"): with `automated.prune` and without `automated.allowEmpty`, an Application whose manifests render
 * nothing while live objects remain is not synced automatically.
 */
function refusesEmpty(app: Application, wouldWipeOut: ReadonlySet<string>): boolean {
  const automated = app.syncPolicy?.automated;
  return automated?.prune === true && automated.allowEmpty !== true && wouldWipeOut.has(app.name);
}

/** The notice's reason line: why drift in `app` waits for a person. */
function whyNotAutomatic(settings: Settings, app: Application, now: Date): string | undefined {
  if (!app.syncPolicy?.automated?.selfHeal) return 'selfHeal is off';
  if (autoSyncAllowed(settings, app, now)) return undefined;
  const env = environmentNameOf(settings, app);
  const rules = env === undefined ? undefined : settings.environments[env];
  if (rules?.requireApproval) return `selfHeal not allowed: ${env} requires approval`;
  if (rules?.autoSync === false) return `selfHeal not allowed: ${env} has autoSync: false`;
  return `selfHeal paused: ${env} is in a freeze window`;
}
