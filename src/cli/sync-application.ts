/**
 * `wavesync sync --app NAME`: sync an Application of wavesync.yaml exactly as the worker runs `/sync NAME` — the
 * same runner (src/sync-run/engine-sync-runner.ts: Application resolution, render at the revision, app-level sync
 * options copied into the operation, the cluster of its destination from wavesync.yaml `clusters:`, the engine
 * with `defaults.healthTimeoutSeconds`) — minus Slack, the queue and approvals: events go to the terminal and
 * nothing is persisted. An App of Apps parent applies its child Applications; their syncs are queued work, so the
 * CLI does not run them.
 */
import { randomUUID } from 'node:crypto';
import { BotError, type OperationState, type SyncEvent } from '../domain/index.js';
import type { Cluster, PlanWarning, SourcedObject } from '../engine/index.js';
import { renderForCommand } from './application-render.js';
import { loadApplication, refOf } from './plan-application.js';
import { type SyncCommandOptions, syncTimings } from './sync-command-options.js';

/**
 * Runs the sync of the Application `name`; returns the final state. Warnings (unknown sync options of the
 * Application and of `--sync-option`, and the manifests' silent fallbacks) go to `onWarning` before anything is
 * applied. @throws BotError for bad input (see loadApplication; `--context`/`--namespace` with --app) and for a
 * cluster that cannot be reached.
 */
export async function syncApplication(
  name: string,
  options: SyncCommandOptions,
  onEvent: (event: SyncEvent) => void,
  signal: AbortSignal | undefined,
  onWarning: (warning: PlanWarning) => void,
): Promise<OperationState> {
  for (const [flag, value] of [
    ['--context', options.context],
    ['--namespace', options.namespace],
    ['--tracking-label', options.trackingLabel],
    ['--tracking-method', options.trackingMethod],
  ] as const) {
    if (value !== undefined) {
      throw new BotError('invalid_command', `${flag} cannot be used with --app`, {
        fix: "the Application's destination and name decide it (wavesync.yaml clusters:, resourceTracking:, spec.destination)",
      });
    }
  }
  const { app, settings, renderer, git } = await loadApplication(name, options);
  const [
    { applicationWarnings },
    { loadConfig },
    { createClusterProvider },
    { createApplicationResolver },
    { createEngineSyncRunner },
    { createKubeCluster },
    { runOperation },
    { planLoaded },
    { scriptedHealthSource },
  ] = await Promise.all([
    import('../applications/index.js'),
    import('../config.js'),
    import('../kube/cluster-provider.js'),
    import('../app-of-apps/index.js'),
    import('../sync-run/index.js'),
    import('../kube/kube-cluster.js'),
    import('../engine/index.js'),
    import('./plan-loaded.js'),
    import('../health-scripts/index.js'),
  ]);
  const revision = options.revision;
  const { ref } = refOf(app, revision);
  const render = (a: typeof app, at: { revision: string | undefined }) =>
    renderer.renderApplication(a, at.revision === undefined ? {} : { revision: at.revision });
  // Said before anything is applied, as plan --app shows them.
  const rendered = await renderForCommand(renderer, app, revision === undefined ? {} : { revision });
  const namespace = app.destination.namespace ?? 'default';
  const planned = planLoaded(
    { objects: rendered.targets, warnings: rendered.warnings },
    namespace,
    options.syncOption,
  );
  for (const warning of [...applicationWarnings(app), ...planned.warnings]) onWarning(warning);
  const timings = syncTimings(options);
  // wavesync.yaml's health: and the destination cluster's own argocd-cm, as the worker; a bad folder fails here.
  const scripts = scriptedHealthSource(settings.health, settings.file, { git });
  const runner = createEngineSyncRunner<SourcedObject, Cluster>({
    application: (_name, request) =>
      createApplicationResolver({ registry: { get: () => app }, settings })(request),
    render,
    clusterFor: createClusterProvider({
      settings,
      kubeconfig: options.kubeconfig ?? loadConfig().kubeconfig,
      createCluster: createKubeCluster,
    }),
    runOperation: async (input) => {
      const scriptedHealth = await scripts.forCluster(input.cluster);
      return runOperation({
        ...input,
        tracking: settings.resourceTracking,
        options: {
          ...(scriptedHealth ? { scriptedHealth } : {}),
          // As the worker: wavesync.yaml's health timeout, unless --health-timeout or --no-wait-health say otherwise.
          healthTimeoutMs: timings.healthTimeoutMs ?? settings.defaults.healthTimeoutSeconds * 1000,
          ...(timings.hookStartGraceMs === undefined ? {} : { hookStartGraceMs: timings.hookStartGraceMs }),
          ...(timings.operationTimeoutMs === undefined
            ? {}
            : { operationTimeoutMs: timings.operationTimeoutMs }),
        },
      });
    },
    logger: () => ({ debug: () => {}, info: () => {}, warn: () => {} }),
  });
  return runner({
    jobId: randomUUID(),
    request: {
      application: app.name,
      operation: {
        prune: options.prune,
        dryRun: options.dryRun,
        syncOptions: options.syncOption,
        ...(revision === undefined ? {} : { revision }),
      },
      initiator: { userId: 'cli', userName: 'wavesync sync' },
      target: undefined,
      requestKey: randomUUID(),
    },
    initialState: undefined,
    reporter: {
      report: async (event) =>
        onEvent(event.type === 'OperationStarted' && ref !== undefined ? { ...event, ref } : event),
      close: async () => {},
    },
    persist: async () => {},
    signal: signal ?? new AbortController().signal,
    // Confirmed when the operation asks (Argo CD: deletion-approved), as `sync <path> --confirm-prune` does.
    pruneConfirmation: async () => (options.confirmPrune ? new Date().toISOString() : undefined),
  });
}
