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
import { renderedDeletionHooks, workerDeletion } from '../deletion/index.js';
import type { Application } from '../domain/index.js';
import { type EngineOptions, runOperation, type SourcedObject } from '../engine/index.js';
import type { FailureNotifier, RequestApprovals } from '../environments/index.js';
import { type ConfigMapReader, scriptedHealthSource } from '../health-scripts/index.js';
import { type ClusterCaches, createClusterCaches } from '../kube/cluster-caches.js';
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
import { createSlackChildLineReporter, createSlackReporter } from '../slack/reporters/slack-reporter.js';
import { slackChat } from '../slack/slack-chat.js';
import { createEngineSyncRunner } from '../sync-run/index.js';
import {
  type ChannelPacer,
  type ChildLineStore,
  createSharedChannelPacer,
  type PostedLines,
  redisChildLineStore,
  redisPostedLines,
  redisThreadOutbox,
  redisThreadOutboxes,
  startOutboxSweeper,
  type ThreadOutbox,
  threadNotePoster,
} from '../thread/index.js';
import { createRolloutWiring } from './rollout-wiring.js';

export interface WorkerDeps {
  config: Config;
  settings: Settings;
  apps: ApplicationsFromSettings;
  metrics: Metrics;
  logger: Logger;
  /** Engine knobs; `healthTimeoutMs` defaults to wavesync.yaml `defaults.healthTimeoutSeconds`. */
  engineOptions?: Partial<EngineOptions>;
  /** The process's live-state caches (serve: shared with the bot); default the worker's own, stopped on close. */
  clusters?: ClusterCaches;
  /** The Slack Web API client for threads; undefined when no bot token is configured (metrics only). */
  web?: WebClient;
  /**
   * The client for thread replies, without WebClient-level retries: a post whose answer was lost must be looked
   * up in the thread before it is tried again (ThreadPoster), never re-sent blindly. Default `web`.
   */
  threadWeb?: WebClient;
  /** Failure notifications (approvals), fanned out next to the thread. */
  notifier?: FailureNotifier;
  /** The approval flow: a rollout's Application whose environment requires approval asks for it here. */
  approvals?: Pick<RequestApprovals, 'gateRequest' | 'releaseRollout'>;
  /** The thread-outbox sweeper's round interval and idle time (ms); defaults 30 s and 60 s. */
  outboxSweep?: { intervalMs?: number; idleMs?: number };
  /**
   * Read `applications:` again (RegistryRefresher.refresh): asked before a job names an Application this worker's
   * registry does not know yet (one the bot found in the cluster or in git since this worker last read them).
   */
  refreshApplications?: () => Promise<unknown>;
}

/** Start the worker; resolves once it is connected and taking jobs. */
/** How long a stopping worker waits for threads still being delivered (ms); the sweeper finishes the rest. */
const THREAD_DRAIN_MS = 10_000;

export async function startWorker(deps: WorkerDeps): Promise<SyncWorker> {
  const { config, settings, apps } = deps;
  const logger = deps.logger.child({ component: 'worker' });
  // Checked at start (a bad builtInScripts folder fails here); each operation adds its cluster's argocd-cm.
  const scripts = scriptedHealthSource(settings.health, settings.file, {
    git: apps.git,
    onNote: (note) => logger.debug({ note }, 'health scripts'),
  });
  const scriptedHealthFor = async (cluster: ConfigMapReader) => {
    const scripted = await scripts.forCluster(cluster);
    return scripted ? { scriptedHealth: scripted } : {};
  };
  const engineOptions: Partial<EngineOptions> = {
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
  // One list+watch cache per cluster for every operation of this worker: the engine's reads and health waits
  // read it and are woken by its watch events (src/kube/live-state-cache.ts).
  const ownCaches = deps.clusters === undefined;
  const clusters =
    deps.clusters ??
    createClusterCaches({
      settings,
      kubeconfig: config.kubeconfig,
      createCluster: createRetryingKubeCluster,
      cache: { logger },
    });
  const runner = createEngineSyncRunner<SourcedObject, ReturnType<typeof createRetryingKubeCluster>>({
    // An App of Apps child's Application comes from its parent's render (app-of-apps/); any other from the registry.
    application: async (_name, request) => {
      if (request.appOfApps) return applicationOf(request);
      if (!apps.registry.find(request.application)) await deps.refreshApplications?.();
      return apps.registry.get(request.application);
    },
    render,
    clusterFor: (app) => clusters.clusterFor(app),
    runOperation: async (input) =>
      runOperation({
        ...input,
        tracking: settings.resourceTracking,
        options: { ...(await scriptedHealthFor(input.cluster)), ...engineOptions },
      }),
    deleteApplication: workerDeletion({
      tracking: settings.resourceTracking,
      timeoutMs: engineOptions.healthTimeoutMs ?? settings.defaults.healthTimeoutSeconds * 1000,
      hooks: (app, revision) => renderedDeletionHooks(apps, app, revision),
      scriptedHealth: (cluster) => scripts.forCluster(cluster),
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
  // Every post of this worker (thread lines, App of Apps lines, retry notes) takes the channel's slot shared with the
  // other workers and the bots through Redis; waiting sync headers go first.
  const pacer = createSharedChannelPacer({
    redis,
    prefix: config.queue.prefix,
    onError: (err: unknown) => logger.debug({ err }, 'shared channel pacing unavailable; paced per process'),
  });
  const lineStore = redisChildLineStore(redis, config.queue.prefix);
  /** Threads of ended jobs still being delivered (SlackReporterOptions.detach), by job id. */
  const threads = new Map<string, Promise<void>>();
  const appOfApps = createAppOfAppsDriver({
    queue: producer,
    threadDelivered: (jobId) => threads.get(jobId)?.catch(() => undefined) ?? Promise.resolve(),
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
    ...(deps.web ? { announce: threadNotePoster({ chat: slackChat(deps.web), pacer, logger }) } : {}),
    threadDelivered: (jobId) => threads.get(jobId)?.catch(() => undefined) ?? Promise.resolve(),
    logger,
  });
  // An ApplicationSet's rollout (`/sync <appset>`, started by the bot): each ended Application continues it.
  const rollout = createRolloutWiring({
    queue: producer,
    redis,
    prefix: config.queue.prefix,
    registry: apps.registry,
    ...(deps.approvals ? { approvals: deps.approvals } : {}),
    ...(deps.web ? { web: deps.web } : {}),
    pacer,
    logger: deps.logger,
  });
  // Promotion pipelines: each stage's ended sync starts its verification; a promotion pins the stage.
  const promotion = promotionLifecycle({
    settings,
    store: redisPromotionStore(redis, config.queue.prefix),
    logger: deps.logger.child({ component: 'promotion' }),
  });
  const lifecycle = combineLifecycles(appOfApps, rollout.driver.lifecycle, retry, promotion);
  const worker = createSyncWorker({
    connection: config.redis,
    prefix: config.queue.prefix,
    runner,
    reporterFactory: reporterFactory(deps, pacer, lineStore, {
      posted: (jobId) => redisPostedLines(redis, config.queue.prefix, jobId),
      outbox: (jobId) => redisThreadOutbox(redis, config.queue.prefix, jobId),
      detach: (jobId, delivery) => {
        threads.set(jobId, delivery);
        void delivery.finally(() => {
          if (threads.get(jobId) === delivery) threads.delete(jobId);
        });
      },
    }),
    concurrency: config.worker.concurrency,
    lockDurationMs: config.worker.lockDurationMs,
    historyLimit: settings.defaults.historyLimit,
    historyLimitOf: (name) => apps.registry.find(name)?.revisionHistoryLimit,
    logger,
    lifecycle,
  });
  await worker.waitUntilReady();
  // As Argo CD's controller syncs its cluster caches at start: the kinds every sync looks for tracked objects in are
  // listed and watched now, so the first syncs read memory too (in the background; a failure is the first read's).
  void clusters.prime(apps.registry.list(), (err) =>
    logger.debug({ err: err instanceof Error ? err.message : String(err) }, 'live-state cache not primed'),
  );
  const sweeper = deps.web
    ? startOutboxSweeper({
        outboxes: redisThreadOutboxes(redis, config.queue.prefix),
        postedLines: (jobId) => redisPostedLines(redis, config.queue.prefix, jobId),
        chat: slackChat(deps.threadWeb ?? deps.web),
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
      // Threads still being delivered at Slack's pace: a bounded wait, then the outbox sweeper finishes them.
      const boundMs = Math.min(options?.graceMs ?? THREAD_DRAIN_MS, THREAD_DRAIN_MS);
      await Promise.race([
        Promise.allSettled([...threads.values()]),
        new Promise((r) => setTimeout(r, boundMs).unref()),
      ]);
      await producer.close();
      redis.disconnect();
      if (ownCaches) clusters.stop();
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
  stores: {
    posted: (jobId: string) => PostedLines;
    outbox: (jobId: string) => ThreadOutbox;
    detach: (jobId: string, delivery: Promise<void>) => void;
  },
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
          detach: (delivery) => stores.detach(jobId, delivery),
          onDropped: (what, lines) => deps.metrics.slackDropped(what, lines),
          header: headerViewOf(deps.apps.registry, { ...request, jobId }),
          ...(job.retry ? { retry: job.retry } : {}),
          ...(job.resumedFrom ? { resumedFrom: job.resumedFrom } : {}),
        }),
      );
    }
    // An App of Apps child, or an Application of a rollout: a line in the parent's (rollout's) thread.
    const parentThread = request.appOfApps?.parentTarget ?? request.rollout?.target;
    if (deps.web && !request.target && parentThread) {
      reporters.push(
        createSlackChildLineReporter({
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
