/**
 * startWorker — the worker half of wavesync: a BullMQ worker whose runner is the sync engine (through
 * createEngineSyncRunner) and whose reporter for each job is the Slack thread of the job's ReportTarget plus the
 * metrics reporter.
 */

import type { WebClient } from '@slack/web-api';
import {
  createApplicationResolver,
  createAppOfAppsDriver,
  redisAppOfAppsChainStore,
} from '../app-of-apps/index.js';
import type { ApplicationsFromSettings } from '../applications/index.js';
import type { Config } from '../config.js';
import { deleteApplication, renderedDeletionHooks } from '../deletion/index.js';
import type { Application } from '../domain/index.js';
import { type EngineOptions, runOperation, type SourcedObject } from '../engine/index.js';
import type { FailureNotifier } from '../environments/index.js';
import { scriptedHealthFromSettings } from '../health-scripts/index.js';
import { createClusterProvider } from '../kube/cluster-provider.js';
import { createRetryingKubeCluster } from '../kube/retrying-cluster.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../ops/metrics.js';
import { promotionLifecycle, redisPromotionStore } from '../promotion/index.js';
import {
  combineLifecycles,
  createRedisClient,
  createSyncQueue,
  createSyncWorker,
  fanOutReporter,
  type ResumedFrom,
  type SyncReporter,
  type SyncRequest,
  type SyncWorker,
  syncRetryLifecycle,
} from '../queue/index.js';
import { requestRetrySync } from '../requests/for-main.js';
import type { Settings } from '../settings/index.js';
import { headerViewOf } from '../slack/commands/header-view.js';
import { createSlackAppOfAppsAnnouncer } from '../slack/reporters/app-of-apps-announcer.js';
import { ChannelPacer } from '../slack/reporters/channel-pacer.js';
import {
  type ChildLineStore,
  createChildLineReporter,
  redisChildLineStore,
} from '../slack/reporters/child-line-reporter.js';
import { startOutboxSweeper } from '../slack/reporters/outbox-sweeper.js';
import { type PostedLines, redisPostedLines } from '../slack/reporters/posted-lines.js';
import { createSlackReporter } from '../slack/reporters/slack-reporter.js';
import { redisThreadOutbox, type ThreadOutbox } from '../slack/reporters/thread-outbox.js';
import { threadNotePoster } from '../slack/reporters/thread-reply.js';
import { createEngineSyncRunner } from './engine-sync-runner.js';

export interface WorkerDeps {
  config: Config;
  settings: Settings;
  apps: ApplicationsFromSettings;
  metrics: Metrics;
  logger: Logger;
  /** Engine knobs; `healthTimeoutMs` defaults to wavesync.yaml `defaults.healthTimeoutSeconds`. */
  engineOptions?: Partial<EngineOptions>;
  /** The Slack Web API client for threads; undefined when no bot token is configured (metrics only). */
  web?: WebClient;
  /**
   * The client for thread replies, without WebClient-level retries: a post whose answer was lost must be looked
   * up in the thread before it is tried again (ThreadPoster), never re-sent blindly. Default `web`.
   */
  threadWeb?: WebClient;
  /** Failure notifications (approvals), fanned out next to the thread. */
  notifier?: FailureNotifier;
  /** The thread-outbox sweeper's round interval and idle time (ms); defaults 30 s and 60 s. */
  outboxSweep?: { intervalMs?: number; idleMs?: number };
}

/** Start the worker; resolves once it is connected and taking jobs. */
export async function startWorker(deps: WorkerDeps): Promise<SyncWorker> {
  const { config, settings, apps } = deps;
  const logger = deps.logger.child({ component: 'worker' });
  const scriptedHealth = scriptedHealthFromSettings(settings.health, settings.file);
  const engineOptions: Partial<EngineOptions> = {
    ...(scriptedHealth ? { scriptedHealth } : {}),
    healthTimeoutMs: settings.defaults.healthTimeoutSeconds * 1000,
    applyConcurrency: settings.defaults.applyConcurrency,
    hookStartGraceMs: settings.defaults.startGraceSeconds * 1000,
    ...deps.engineOptions,
  };
  const applicationOf = createApplicationResolver({ registry: apps.registry, settings });
  const render = (
    app: Application,
    { revision, signal }: { revision: string | undefined; signal: AbortSignal },
  ) => apps.renderer.renderApplication(app, { signal, ...(revision === undefined ? {} : { revision }) });
  const runner = createEngineSyncRunner<SourcedObject, ReturnType<typeof createRetryingKubeCluster>>({
    application: (_name, request) => applicationOf(request),
    render,
    clusterFor: createClusterProvider({
      settings,
      kubeconfig: config.kubeconfig,
      createCluster: createRetryingKubeCluster,
    }),
    runOperation: (input) =>
      runOperation({ ...input, tracking: settings.resourceTracking, options: engineOptions }),
    deleteApplication: ({ app, cluster, ctx, deletion }) =>
      deleteApplication({
        app,
        cascade: deletion.cascade,
        confirmed: deletion.confirmed,
        planHash: deletion.planHash,
        operation: ctx.request.operation,
        cluster,
        tracking: settings.resourceTracking,
        reporter: ctx.reporter,
        persist: (s) => ctx.persist(s),
        ...(ctx.initialState ? { initialState: ctx.initialState } : {}),
        signal: ctx.signal,
        timeoutMs: engineOptions.healthTimeoutMs ?? settings.defaults.healthTimeoutSeconds * 1000,
        hooks: () => renderedDeletionHooks(apps, app),
        ...(scriptedHealth ? { scriptedHealth } : {}),
      }),
    logger: (fields) => deps.logger.child({ component: 'engine', ...fields }),
  });
  // App of Apps: chain state and child-line ts in Redis, children enqueued through a producer of our own.
  const redis = createRedisClient(config.redis, { maxRetriesPerRequest: 2 });
  redis.on('error', (err: Error) => logger.debug({ err: err.message }, 'app of apps redis error'));
  const producer = createSyncQueue({
    connection: config.redis,
    prefix: config.queue.prefix,
    attempts: config.queue.attempts,
    backoffMs: config.queue.backoffMs,
    historyLimit: settings.defaults.historyLimit,
    logger,
  });
  const pacer = new ChannelPacer();
  const lineStore = redisChildLineStore(redis, config.queue.prefix);
  const appOfApps = createAppOfAppsDriver({
    queue: producer,
    store: redisAppOfAppsChainStore(redis, config.queue.prefix),
    settings,
    applicationOf,
    render,
    registered: (name) => apps.registry.find(name),
    ...(deps.web ? { announcer: createSlackAppOfAppsAnnouncer({ client: deps.web, pacer, logger }) } : {}),
    logger: deps.logger.child({ component: 'app-of-apps' }),
  });
  // spec.syncPolicy.retry: a failed operation is queued again after its backoff, and its thread says so.
  const retry = syncRetryLifecycle({
    requestRetry: (ask) => requestRetrySync({ queue: producer }, ask),
    retryStrategyOf: (name) => apps.registry.find(name)?.syncPolicy?.retry,
    ...(deps.web ? { announce: threadNotePoster({ client: deps.web, pacer, logger }) } : {}),
    logger,
  });
  // Promotion pipelines: each stage's ended sync starts its verification; a promotion pins the stage.
  const promotion = promotionLifecycle({
    settings,
    store: redisPromotionStore(redis, config.queue.prefix),
    logger: deps.logger.child({ component: 'promotion' }),
  });
  const lifecycle = combineLifecycles(appOfApps, retry, promotion);
  const worker = createSyncWorker({
    connection: config.redis,
    prefix: config.queue.prefix,
    runner,
    reporterFactory: reporterFactory(deps, pacer, lineStore, {
      posted: (jobId) => redisPostedLines(redis, config.queue.prefix, jobId),
      outbox: (jobId) => redisThreadOutbox(redis, config.queue.prefix, jobId),
    }),
    concurrency: config.worker.concurrency,
    lockDurationMs: config.worker.lockDurationMs,
    historyLimit: settings.defaults.historyLimit,
    historyLimitOf: (name) => apps.registry.find(name)?.revisionHistoryLimit,
    logger,
    lifecycle,
  });
  await worker.waitUntilReady();
  const sweeper = deps.web
    ? startOutboxSweeper({
        redis,
        prefix: config.queue.prefix,
        client: deps.threadWeb ?? deps.web,
        pacer,
        jobEnded: async (jobId) => {
          const state = (await producer.jobStatus(jobId))?.state;
          return state !== 'waiting' && state !== 'active';
        },
        logger: deps.logger.child({ component: 'outbox-sweeper' }),
        onDropped: (what, lines) => deps.metrics.slackDropped(what, lines),
        ...(deps.outboxSweep ?? {}),
      })
    : undefined;
  logger.info({ prefix: config.queue.prefix, concurrency: config.worker.concurrency }, 'worker ready');
  return {
    ...worker,
    async close(options) {
      sweeper?.stop();
      await worker.close(options);
      await producer.close();
      redis.disconnect();
    },
  };
}

/**
 * Per job: metrics, the Slack thread (when the job has a ReportTarget and Slack is configured) or, for an App of
 * Apps child, its line in the parent's thread, and notifications.
 */
function reporterFactory(
  deps: WorkerDeps,
  pacer: ChannelPacer,
  lineStore: ChildLineStore,
  stores: { posted: (jobId: string) => PostedLines; outbox: (jobId: string) => ThreadOutbox },
): (job: {
  jobId: string;
  request: SyncRequest;
  retry?: { attempt: number; attempts: number; reason: string };
  resumedFrom?: ResumedFrom;
}) => SyncReporter {
  const logger = deps.logger.child({ component: 'slack-reporter' });
  return (job) => {
    const { jobId, request } = job;
    const reporters: SyncReporter[] = [deps.metrics.reporter()];
    if (deps.web && request.target) {
      reporters.push(
        createSlackReporter({
          client: deps.threadWeb ?? deps.web,
          target: request.target,
          pacer,
          logger,
          posted: stores.posted(jobId),
          outbox: stores.outbox(jobId),
          onDropped: (what, lines) => deps.metrics.slackDropped(what, lines),
          header: headerViewOf(deps.apps.registry, { ...request, jobId }),
          ...(job.retry ? { retry: job.retry } : {}),
          ...(job.resumedFrom ? { resumedFrom: job.resumedFrom } : {}),
        }),
      );
    }
    const parentThread = request.appOfApps?.parentTarget;
    if (deps.web && !request.target && parentThread) {
      reporters.push(
        createChildLineReporter({
          client: deps.web,
          target: parentThread,
          jobId,
          application: request.application,
          pacer,
          store: lineStore,
          logger,
        }),
      );
    }
    if (deps.notifier) reporters.push(deps.notifier.reporterFor(job));
    return fanOutReporter(reporters);
  };
}
