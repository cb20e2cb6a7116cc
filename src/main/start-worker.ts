/**
 * startWorker — the worker half of wavesync: a BullMQ worker whose runner is the sync engine (through
 * createEngineSyncRunner) and whose reporter for each job is the Slack thread of the job's ReportTarget plus the
 * metrics reporter.
 */

import type { WebClient } from '@slack/web-api';
import type { FailureNotifier } from '../approvals/index.js';
import { type ApplicationsFromSettings, deleteApplication } from '../apps/index.js';
import type { Config } from '../config.js';
import { type EngineOptions, runOperation, type SourcedObject } from '../engine/index.js';
import { createKubeCluster } from '../kube/kube-cluster.js';
import type { Logger } from '../logger.js';
import { createSyncWorker, type SyncRequest, type SyncWorker } from '../queue/index.js';
import { fanOutReporter, type SyncReporter } from '../reporting/sync-reporter.js';
import type { Settings } from '../settings/index.js';
import { ChannelPacer } from '../slack/channel-pacer.js';
import { headerViewOf } from '../slack/commands/header-view.js';
import { createSlackReporter } from '../slack/slack-reporter.js';
import { createClusterProvider } from './cluster-provider.js';
import { createEngineSyncRunner } from './engine-sync-runner.js';
import type { Metrics } from './metrics.js';

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
  /** Failure notifications (approvals), fanned out next to the thread. */
  notifier?: FailureNotifier;
}

/** Start the worker; resolves once it is connected and taking jobs. */
export async function startWorker(deps: WorkerDeps): Promise<SyncWorker> {
  const { config, settings, apps } = deps;
  const logger = deps.logger.child({ component: 'worker' });
  const engineOptions: Partial<EngineOptions> = {
    healthTimeoutMs: settings.defaults.healthTimeoutSeconds * 1000,
    ...deps.engineOptions,
  };
  const runner = createEngineSyncRunner<SourcedObject, ReturnType<typeof createKubeCluster>>({
    application: (name) => apps.registry.get(name),
    render: (app, { revision }) =>
      apps.renderer.renderApplication(app, revision === undefined ? {} : { revision }),
    clusterFor: createClusterProvider({
      settings,
      kubeconfig: config.kubeconfig,
      createCluster: createKubeCluster,
    }),
    runOperation: (input) => runOperation({ ...input, options: engineOptions }),
    deleteApplication: ({ app, cluster, ctx, deletion }) =>
      deleteApplication({
        app,
        cascade: deletion.cascade,
        confirmed: deletion.confirmed,
        operation: ctx.request.operation,
        cluster,
        reporter: ctx.reporter,
        persist: (s) => ctx.persist(s),
        ...(ctx.initialState ? { initialState: ctx.initialState } : {}),
        signal: ctx.signal,
        timeoutMs: engineOptions.healthTimeoutMs ?? settings.defaults.healthTimeoutSeconds * 1000,
      }),
    logger: (fields) => deps.logger.child({ component: 'engine', ...fields }),
  });
  const worker = createSyncWorker({
    connection: { url: config.redisUrl },
    prefix: config.queue.prefix,
    runner,
    reporterFactory: reporterFactory(deps),
    concurrency: config.worker.concurrency,
    lockDurationMs: config.worker.lockDurationMs,
    logger,
  });
  await worker.waitUntilReady();
  logger.info({ prefix: config.queue.prefix, concurrency: config.worker.concurrency }, 'worker ready');
  return worker;
}

/** Per job: metrics, the Slack thread (when the job has a ReportTarget and Slack is configured), notifications. */
function reporterFactory(deps: WorkerDeps): (job: { jobId: string; request: SyncRequest }) => SyncReporter {
  const pacer = new ChannelPacer();
  const logger = deps.logger.child({ component: 'slack-reporter' });
  return (job) => {
    const { jobId, request } = job;
    const reporters: SyncReporter[] = [deps.metrics.reporter()];
    if (deps.web && request.target) {
      reporters.push(
        createSlackReporter({
          client: deps.web,
          target: request.target,
          pacer,
          logger,
          header: headerViewOf(deps.apps.registry, { ...request, jobId }),
        }),
      );
    }
    if (deps.notifier) reporters.push(deps.notifier.reporterFor(job));
    return fanOutReporter(reporters);
  };
}
