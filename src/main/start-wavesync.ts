/**
 * startWavesync — the composition root: from the typed Config (environment) and wavesync.yaml build the
 * Applications registry and renderer, the metrics and operator endpoints, the approval flow, and start the
 * process role: `bot` (Slack app: /sync, buttons; enqueues), `worker` (runs syncs), or `serve` (both, one process:
 * the worker in a worker thread of its own, worker-thread.ts, so that no sync holds the bot's event loop or heap).
 * Every process serves /healthz and /metrics on PORT (the bot next to /slack/events). `close()` stops in order:
 * no new HTTP requests, then running syncs saved and handed back to the queue, then connections.
 */

import path from 'node:path';
import type { WebClient } from '@slack/web-api';
import { createApplicationResolver } from '../app-of-apps/index.js';
import {
  applicationsFromSettings,
  createRegistryRefresher,
  parseEnvironmentSubscriptions,
  type RegistryRefresher,
} from '../applications/index.js';
import { type Config, processEnvironment } from '../config.js';
import { createDeletionPlanner } from '../deletion/index.js';
import { type Application, BotError } from '../domain/index.js';
import type { RunningDriftDetection } from '../drift/index.js';
import type { EngineOptions } from '../engine/index.js';
import { assertKnownEnvironments, createSyncPreviewer, type SyncPreviewer } from '../environments/index.js';
import { ARGOCD_CM_REUSE_MS, scriptedHealthSource } from '../health-scripts/index.js';
import { clusterApplicationsLister } from '../kube/cluster-applications.js';
import { type ClusterCaches, createClusterCaches } from '../kube/cluster-caches.js';
import { createRetryingKubeCluster } from '../kube/retrying-cluster.js';
import type { Logger } from '../logger.js';
import { countingFetch } from '../ops/counting-fetch.js';
import { createMetrics, type Metrics } from '../ops/metrics.js';
import { createOpsEndpoints, type OpsEndpoints } from '../ops/ops-endpoints.js';
import { startOpsServer } from '../ops/ops-server.js';
import { packageVersion } from '../package-info.js';
import { assertPromotionPipelines } from '../promotion/index.js';
import type { SyncQueue, SyncRequest } from '../queue/index.js';
import {
  createResourceViews,
  type ResourceViews,
  resourceActionsFromSettings,
} from '../resource-actions/index.js';
import type { RevisionWatcher } from '../revisions/index.js';
import { loadSettings, type Settings } from '../settings/index.js';
import { createSlackWebClient } from '../slack/slack-web-client.js';
import { type ApprovalWiring, createApprovalWiring } from './approval-wiring.js';
import { startDriftDetection } from './drift-wiring.js';
import { type RunningRevisions, startRevisionWatcher } from './revision-wiring.js';
import { startBot } from './start-bot.js';
import { startWorker } from './start-worker.js';
import { startWorkerThread, type WorkerThread } from './worker-thread.js';

export type ProcessRole = 'serve' | 'bot' | 'worker';

export interface StartOptions {
  config: Config;
  logger: Logger;
  /** Engine knobs; in `serve` they cross to the worker thread, so numbers and flags only. */
  engineOptions?: Partial<EngineOptions>;
  /** Interface the HTTP server listens on (default all interfaces). */
  host?: string;
  /**
   * The worker role inside `serve`'s worker thread (worker-thread-entry.ts): no HTTP server of its own (serve
   * answers /healthz and /metrics for it), its Node.js metrics named `wavesync_worker_thread_*`, its own git and
   * Helm cache folders.
   */
  embedded?: boolean;
}

export interface RunningWavesync {
  role: ProcessRole;
  /** The HTTP port actually listened on (PORT=0 picks a free one). */
  port: number;
  metrics: Metrics;
  /** Drift detection (bot and serve roles with a Slack bot token); tick() compares now. */
  drift?: Pick<RunningDriftDetection, 'tick' | 'tickIfLeader'>;
  /** The revision watcher (bot and serve roles with a Slack bot token); poll() resolves every Application now. */
  revisions?: Pick<RevisionWatcher, 'poll'>;
  /**
   * Previews (plan, live diff) made on this thread, over the renderer and the live-state caches: in serve's worker
   * thread, what answers serve's `/sync diff` and approval previews (worker-thread-entry.ts).
   */
  preview?: SyncPreviewer;
  close(options?: { graceMs?: number }): Promise<void>;
}

/** Read wavesync.yaml from WAVESYNC_CONFIG. @throws BotError('invalid_config') when it is not set or invalid. */
export async function settingsOf(config: Config): Promise<Settings> {
  if (config.configFile === undefined) {
    throw new BotError(
      'invalid_config',
      'WAVESYNC_CONFIG is not set: point it at your wavesync.yaml (see examples/wavesync.yaml and docs/applications.md)',
    );
  }
  return loadSettings(config.configFile);
}

type Stop = (graceMs: number | undefined) => Promise<void>;

/** Start `role`. @throws BotError for configuration problems (before anything listens). */
export async function startWavesync(role: ProcessRole, options: StartOptions): Promise<RunningWavesync> {
  const { config, logger } = options;
  const settings = options.embedded ? ownCacheFolders(await settingsOf(config)) : await settingsOf(config);
  const apps = await applicationsFromSettings(settings, {
    env: processEnvironment(),
    logger,
    clusterApplications: clusterApplicationsLister(config.kubeconfig),
  });
  logger.info({ applications: apps.registry.names().length, config: settings.file }, 'applications loaded');
  const refresher = createRegistryRefresher(apps.registry, { logger });
  assertKnownEnvironments(settings, apps.registry.list());
  assertPromotionPipelines(settings, apps.registry.list());
  for (const [name, env] of Object.entries(settings.environments)) {
    for (const warning of parseEnvironmentSubscriptions(name, env.subscriptions).warnings) {
      logger.warn({ config: settings.file }, warning);
    }
  }
  const metrics = createMetrics(options.embedded ? { defaultsPrefix: 'wavesync_worker_thread_' } : {});
  let thread: WorkerThread | undefined;
  const ops = options.embedded
    ? undefined
    : createOpsEndpoints({
        config,
        version: packageVersion(),
        role,
        metrics,
        ...(role === 'serve' ? { worker: () => thread?.state() ?? 'starting' } : {}),
      });
  const web = slackWebClient(config, metrics);
  const applicationOf = createApplicationResolver({ registry: apps.registry, settings });
  // One live-state cache per cluster for the process (built on first use): drift, the diff, resource health and
  // the engine's reads and waits share one list+watch per kind.
  const clusters = createClusterCaches({
    settings,
    kubeconfig: config.kubeconfig,
    createCluster: createRetryingKubeCluster,
    cache: { logger: logger.child({ component: 'live-state-cache' }) },
  });
  // `/sync resources` and resource actions (and approved ones, wherever the approval sweeper finds them) read and
  // write through the same caches and `clusters:` mapping as the worker.
  // Health as the worker judges it: the one script source chain (wavesync.yaml's health:, then the destination's
  // argocd-cm, read at most once a minute per cluster).
  const scripts = scriptedHealthSource(settings.health, settings.file, {
    git: apps.git,
    reuseMs: ARGOCD_CM_REUSE_MS,
    onNote: (note) => logger.debug({ note }, 'health scripts'),
  });
  const resourceViews = createResourceViews({
    clusterFor: (application) => clusters.clusterFor(apps.registry.get(application)),
    actions: resourceActionsFromSettings(settings.health, settings.file),
    tracking: settings.resourceTracking,
    scriptedFor: (application) => scripts.forCluster(clusters.clusterFor(apps.registry.get(application))),
  });
  // Previews (`/sync diff`, `--dry-run`, approval messages, View diff) over the renderer and the live-state caches.
  // Serve makes them in its worker thread, whose heap already holds the app's live state after a sync: at 50,000
  // objects the render, the dry runs' answers and the comparison left the bot's heap at 600–720 MB, and its garbage
  // collection stalled the bot's loop 120–220 ms at a time. While the thread is not up, here.
  const localPreview = timedPreviews(
    createSyncPreviewer({
      renderer: apps.renderer,
      cluster: (app) => clusters.clusterFor(app),
      ...(settings.resourceTracking ? { tracking: settings.resourceTracking } : {}),
    }),
    metrics,
  );
  const preview: SyncPreviewer =
    role === 'serve'
      ? (app, operation) =>
          thread?.state() === 'up' ? thread.preview(app, operation) : localPreview(app, operation)
      : localPreview;
  const wiringFor = (queue?: SyncQueue) =>
    web &&
    createApprovalWiring({
      redis: config.redis,
      prefix: config.queue.prefix,
      settings,
      apps,
      web,
      logger,
      kubeconfig: config.kubeconfig,
      clusterFor: (app: Application) => clusters.clusterFor(app),
      preview,
      resourceViews,
      ...(queue ? { queue } : {}),
      applicationOfRequest: (request: SyncRequest) => {
        try {
          return request.appOfApps ? applicationOf(request) : undefined;
        } catch {
          return undefined;
        }
      },
    });
  // Stopped in reverse order of starting: HTTP first, then the worker, then connections.
  const stops: Stop[] = [async () => clusters.stop(), async () => ops?.close()];
  refresher.start(settings.defaults.registryRefreshSeconds * 1000);
  stops.push(() => refresher.stop());
  const stopAll = async (graceMs: number | undefined) => {
    // Bounded: a sync that does not reach its next step in time is left to stall recovery on another worker.
    const limitMs = (graceMs ?? 25_000) + 5000;
    for (const stop of stops.reverse()) {
      await deadline(stop(graceMs), limitMs).catch((err: unknown) => logger.warn({ err }, 'stop failed'));
    }
  };
  try {
    if (role === 'serve') {
      const started = startWorkerThread(
        {
          config,
          logLevel: logger.level,
          ...(options.engineOptions ? { engineOptions: options.engineOptions } : {}),
        },
        logger,
      );
      thread = started;
      stops.push((graceMs) => started.close(graceMs));
      metrics.include(() => started.metrics());
    }
    if (role === 'worker') {
      const wiring = wiringFor();
      if (wiring) stops.push(() => wiring.close());
      const worker = await startWorker({
        config,
        settings,
        apps,
        metrics,
        logger,
        clusters,
        ...(web ? { web, threadWeb: slackWebClient(config, metrics, 0)! } : {}),
        ...(wiring ? { notifier: wiring.notifier, approvals: wiring.approvals } : {}),
        ...(options.engineOptions ? { engineOptions: options.engineOptions } : {}),
        refreshApplications: () => refresher.refresh(),
      });
      stops.push((graceMs) => worker.close(graceMs === undefined ? {} : { graceMs }));
    }
    const { port, drift, revisions } = !ops
      ? { port: 0, drift: undefined, revisions: undefined }
      : await listen(role, {
          config,
          settings,
          apps,
          ops,
          logger,
          wiringFor,
          resourceViews,
          refresher,
          clusters,
          ...(web ? { web } : {}),
          driftFor: (queue) =>
            web && startDriftDetection({ config, settings, apps, web, queue, metrics, clusters, logger }),
          revisionsFor: (queue, wiring) =>
            web &&
            startRevisionWatcher({
              config,
              settings,
              apps,
              web,
              queue,
              approvals: wiring.approvals,
              env: processEnvironment(),
              logger,
            }),
          stops,
          ...(options.host ? { host: options.host } : {}),
        });
    await thread?.ready;
    if (!options.embedded) logger.info({ port }, 'wavesync started');
    return {
      role,
      port,
      metrics,
      ...(drift ? { drift } : {}),
      ...(revisions ? { revisions: revisions.watcher } : {}),
      preview: localPreview,
      close: async ({ graceMs } = {}) => stopAll(graceMs),
    };
  } catch (error) {
    await stopAll(0);
    throw error;
  }
}

/** Serve HTTP: the Slack app with the operator routes (bot, serve), or only the operator routes (worker). */
async function listen(
  role: ProcessRole,
  input: {
    config: Config;
    settings: Settings;
    apps: Awaited<ReturnType<typeof applicationsFromSettings>>;
    ops: OpsEndpoints;
    logger: Logger;
    wiringFor: (queue: SyncQueue) => ApprovalWiring | undefined;
    resourceViews: ResourceViews;
    driftFor: (queue: SyncQueue) => RunningDriftDetection | undefined;
    revisionsFor: (queue: SyncQueue, wiring: ApprovalWiring) => RunningRevisions | undefined;
    refresher: RegistryRefresher;
    clusters: ClusterCaches;
    web?: WebClient;
    stops: Stop[];
    host?: string;
  },
): Promise<{ port: number; drift?: RunningDriftDetection; revisions?: RunningRevisions }> {
  if (role === 'worker') {
    const server = await startOpsServer(input.ops.routes, input.config.port, input.host);
    input.stops.push(() => server.close());
    return { port: server.port };
  }
  const clusterProvider = (app: Application) => input.clusters.clusterFor(app);
  const bot = await startBot({
    config: input.config,
    apps: input.apps,
    routes: input.ops.routes,
    wiring: (queue) => {
      const wiring = input.wiringFor(queue);
      if (!wiring) throw new BotError('invalid_config', 'SLACK_BOT_TOKEN is not set');
      return wiring;
    },
    drift: (queue) => input.driftFor(queue),
    revisions: (queue, wiring) => input.revisionsFor(queue, wiring),
    logger: input.logger,
    ...(input.host ? { host: input.host } : {}),
    // `/sync delete` lists the tracked objects through the same `clusters:` mapping as the worker.
    deletions: createDeletionPlanner({
      apps: input.apps,
      tracking: input.settings.resourceTracking,
      clusterFor: clusterProvider,
    }),
    // `/sync resources` and resource actions read and write through the same mapping.
    resourceViews: input.resourceViews,
    refreshApplications: () => input.refresher.refreshIfStale(),
    ...(input.web ? { web: input.web } : {}),
    settings: input.settings,
  });
  input.stops.push(() => bot.close());
  return {
    port: bot.port,
    ...(bot.drift ? { drift: bot.drift } : {}),
    ...(bot.revisions ? { revisions: bot.revisions } : {}),
  };
}

/** The Web API client the worker (threads, notifications) and the approval flow use; none without a bot token. */
function slackWebClient(config: Config, metrics: Metrics, retries?: number): WebClient | undefined {
  const { botToken, apiUrl } = config.slack;
  if (!botToken) return undefined;
  return createSlackWebClient({
    botToken,
    ...(apiUrl ? { apiUrl } : {}),
    ...(retries === undefined ? {} : { retries }),
    fetch: countingFetch(metrics),
  });
}

/** `previews` counted and timed in `metrics` (wavesync_preview_duration_seconds). */
function timedPreviews(previews: SyncPreviewer, metrics: Metrics): SyncPreviewer {
  return async (app, operation) => {
    const started = performance.now();
    try {
      const preview = await previews(app, operation);
      metrics.previewMade((performance.now() - started) / 1000, 'ok');
      return preview;
    } catch (error) {
      metrics.previewMade((performance.now() - started) / 1000, 'failed');
      throw error;
    }
  };
}

/** `settings` with git and Helm caches of their own: subfolders of the configured ones (serve's worker thread). */
function ownCacheFolders(settings: Settings): Settings {
  const { gitCacheDir, helmCacheDir } = settings.defaults;
  return {
    ...settings,
    defaults: {
      ...settings.defaults,
      gitCacheDir: path.join(gitCacheDir, 'worker-thread'),
      helmCacheDir: path.join(helmCacheDir, 'worker-thread'),
    },
  };
}

function deadline(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not stop within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
