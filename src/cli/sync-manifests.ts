/**
 * The work behind `wavesync sync` (loaded lazily so other commands start without @kubernetes/client-node):
 * load the manifests, build the Cluster adapter from the kubeconfig, run the operation.
 */
import path from 'node:path';
// The manifest loader itself, not the applications barrel (git, Helm, ApplicationSets, settings schemas).
import { contentRevisionOf } from '../applications/manifests/index.js';
import {
  BotError,
  DEFAULT_RESOURCE_TRACKING,
  type OperationState,
  type SyncEvent,
  type SyncOperation,
} from '../domain/index.js';
import {
  type Cluster,
  ClusterError,
  type ObjectRef,
  type PlanWarning,
  runOperation,
  type ScriptedHealth,
} from '../engine/index.js';
// The health keys of argocd-cm alone (no settings schemas, no Lua VM): see scriptedHealthOfPath.
import {
  argocdCmHealthData,
  argocdCmRef,
  type ConfigMapReader,
  DEFAULT_ARGOCD_NAMESPACE,
} from '../health-scripts/argocd-cm-health-keys.js';
import { contextNamespaceOf, loadKubeConfig } from '../kube/load-kube-config.js';
import { createRetryingKubeCluster } from '../kube/retrying-cluster.js';
import { loadManifestsCached } from './manifest-parse-cache.js';
import { planLoaded } from './plan-loaded.js';
import { withPrefetchedTracking } from './prefetched-cluster.js';
import { type SyncCommandOptions, syncTimings } from './sync-command-options.js';
import { rejectPathAndApp } from './target-or-app.js';

export type { SyncCommandOptions } from './sync-command-options.js';

/** Default `--health-timeout`: 300 s, as the engine's healthTimeoutMs. */
const DEFAULT_HEALTH_TIMEOUT_MS = 300_000;

/** The JSON document `--output json` prints; `ref`: what a git source's revision was resolved from (`sync --app`). */
export function syncResultJson(state: OperationState, ref?: string): string {
  const { phase, message, startedAt, finishedAt, health, syncResult } = state;
  const document = {
    phase,
    message,
    startedAt,
    finishedAt,
    revision: syncResult.revision,
    ...(ref === undefined ? {} : { ref }),
    resources: syncResult.resources,
    health,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * Runs the sync of the manifests at `target`; returns the final state. Throws BotError for bad input and for a
 * cluster that cannot be reached or refuses the engine's requests (`cluster_error`, the API server's message).
 */
export async function syncManifests(
  target: string | undefined,
  options: SyncCommandOptions,
  onEvent: (event: SyncEvent) => void,
  signal?: AbortSignal,
  onWarning: (warning: PlanWarning) => void = () => {},
): Promise<OperationState> {
  rejectPathAndApp(target, options.app);
  const timings = syncTimings(options);
  if (options.app !== undefined) {
    if (options.resourceCustomizations !== undefined) {
      throw new BotError('invalid_command', '--resource-customizations is for a path', {
        fix: "with --app, wavesync.yaml's health.builtInScripts names the folder",
      });
    }
    const { syncApplication } = await import('./sync-application.js');
    return syncApplication(options.app, options, onEvent, signal, onWarning).catch(rethrowClusterError);
  }
  if (target === undefined) {
    throw new BotError(
      'invalid_command',
      'name what to sync: a manifest path, or --app <name> with wavesync.yaml',
    );
  }
  if (options.revision !== undefined) {
    throw new BotError('invalid_command', '--revision needs --app', {
      fix: 'a path is synced as it is on disk',
    });
  }
  const kc = loadKubeConfig({ kubeconfig: options.kubeconfig, context: options.context });
  const application = options.trackingLabel ?? path.basename(path.resolve(target)).replace(/\.ya?ml$/, '');
  // The cluster's argocd-cm and the Application's tracked objects are read while the manifests are parsed; their
  // errors (and a bad --config) are reported after the manifests' own.
  const cluster = withPrefetchedTracking(createRetryingKubeCluster(kc), application);
  const scripts = scriptedHealthOfPath(options, cluster);
  scripts.catch(() => {});
  const loaded = await loadManifestsCached(target);
  const scriptedHealth = await scripts;
  const namespace = options.namespace ?? contextNamespaceOf(kc);
  // Argo CD's silent fallbacks (unknown hook types, policies, sync options), said before anything is applied.
  for (const warning of planLoaded(loaded, namespace, options.syncOption).warnings) onWarning(warning);
  const operation: SyncOperation = {
    prune: options.prune,
    dryRun: options.dryRun,
    syncOptions: options.syncOption,
  };
  return runOperation({
    application,
    tracking: {
      ...DEFAULT_RESOURCE_TRACKING,
      method: options.trackingMethod ?? DEFAULT_RESOURCE_TRACKING.method,
    },
    targets: loaded.objects,
    namespace,
    revision: contentRevisionOf(loaded.objects),
    operation,
    cluster,
    reporter: { report: async (event) => onEvent(event) },
    signal,
    // Confirmed when the operation asks, so always at or after its start (Argo CD: deletion-approved).
    ...(options.confirmPrune ? { pruneConfirmation: async () => new Date().toISOString() } : {}),
    options: {
      ...(scriptedHealth ? { scriptedHealth } : {}),
      ...(timings.hookStartGraceMs === undefined ? {} : { hookStartGraceMs: timings.hookStartGraceMs }),
      ...(timings.operationTimeoutMs === undefined ? {} : { operationTimeoutMs: timings.operationTimeoutMs }),
      // Not waiting (0) still reads the health once (HealthAssessed), without waiting for it to change.
      healthTimeoutMs: timings.healthTimeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS,
    },
  }).catch((error: unknown) => rethrowClusterError(error, kc.getCurrentCluster()?.server));
}

/**
 * Health scripts as the worker judges with them: wavesync.yaml's health: (--config, else $WAVESYNC_CONFIG, else the
 * defaults) and `--resource-customizations`, then the cluster's own argocd-cm below them. With neither option nor
 * $WAVESYNC_CONFIG only the cluster's argocd-cm (in `argocd`, the default of health.clusterArgocdCm) can name a
 * script: it is read first, and the settings schemas and the Lua VM are loaded only when it has health keys (then
 * through the same chain, which reads the answer already in hand instead of asking again).
 */
async function scriptedHealthOfPath(
  options: SyncCommandOptions,
  cluster: Cluster,
): Promise<ScriptedHealth | undefined> {
  const config = options.config ?? process.env.WAVESYNC_CONFIG;
  let reader: ConfigMapReader = cluster;
  if (!config && options.resourceCustomizations === undefined) {
    const ref = argocdCmRef(DEFAULT_ARGOCD_NAMESPACE);
    const read = cluster.get(ref);
    const configMap = await read.catch(() => undefined);
    // Unreadable (no right to it, unreachable): the chain makes that a note and goes on without it, as here.
    if (Object.keys(argocdCmHealthData(configMap)).length === 0) return undefined;
    reader = { get: (asked) => (sameRef(asked, ref) ? read : cluster.get(asked)) };
  }
  const { scriptedHealthSourceOfOptions } = await import('./scripted-health-options.js');
  const source = await scriptedHealthSourceOfOptions({
    ...(config ? { config } : {}),
    ...(options.resourceCustomizations === undefined
      ? {}
      : { resourceCustomizations: options.resourceCustomizations }),
  });
  return source.forCluster(reader);
}

function sameRef(a: ObjectRef, b: ObjectRef): boolean {
  return (
    a.apiVersion === b.apiVersion && a.kind === b.kind && a.namespace === b.namespace && a.name === b.name
  );
}

/**
 * Rethrows a ClusterError as BotError `cluster_error` (one line for the terminal); anything else as it is.
 * `server`: the API server's URL, named in the error when known. A 401 says the credentials were refused and how
 * to check them; a 403 how to see what the user may do.
 */
export function rethrowClusterError(error: unknown, server?: string): never {
  if (!(error instanceof ClusterError)) throw error;
  const where = server === undefined ? '' : ` (${server})`;
  if (error.statusCode === 401) {
    throw new BotError(
      'cluster_error',
      `the cluster refused the kubeconfig's credentials: 401 Unauthorized${where}`,
      {
        cause: error,
        fix:
          "check the current context's user: `kubectl auth whoami` with the same --kubeconfig/--context must answer; " +
          'renew an expired token or client certificate, or log in again',
      },
    );
  }
  if (error.statusCode === 403) {
    throw new BotError('cluster_error', `the cluster forbids the request: ${error.message}${where}`, {
      cause: error,
      fix: 'grant the kubeconfig user that right (RBAC); `kubectl auth can-i --list` shows what it may do',
    });
  }
  const problem = error.transient ? 'cannot reach the cluster' : 'the cluster refused the request';
  throw new BotError('cluster_error', `${problem}: ${error.message}${where}`, { cause: error });
}

/**
 * Whether `wavesync sync` succeeded, as `argocd app sync` judges it: the operation Succeeded and — when it waited
 * for health (the default; not for a dry run) — the app ended Healthy or Suspended. Returns the failure, if any.
 */
export function syncFailureOf(
  state: OperationState,
  options: Pick<SyncCommandOptions, 'waitHealth' | 'dryRun'>,
): string | undefined {
  if (state.phase !== 'Succeeded') return `the operation ${state.phase}: ${state.message}`;
  if (options.waitHealth === false || options.dryRun) return undefined;
  const health = state.health;
  if (health === undefined || health.status === 'Healthy' || health.status === 'Suspended') return undefined;
  return `the operation Succeeded but the app is ${health.status}${health.message ? `: ${health.message}` : ''}`;
}
