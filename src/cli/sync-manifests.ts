/**
 * The work behind `wavesync sync` (loaded lazily so other commands start without @kubernetes/client-node):
 * load the manifests, build the Cluster adapter from the kubeconfig, run the operation.
 */
import path from 'node:path';
import { BotError, type OperationState, type SyncEvent, type SyncOperation } from '../domain/index.js';
import { ClusterError, runOperation } from '../engine/index.js';
import { contextNamespaceOf, loadKubeConfig } from '../kube/load-kube-config.js';
import { createRetryingKubeCluster } from '../kube/retrying-cluster.js';
import { contentRevisionOf, loadManifests } from '../manifests/index.js';

export interface SyncCommandOptions {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
  prune: boolean;
  dryRun: boolean;
  output: 'text' | 'json';
  app?: string;
  /** App-level sync options, e.g. `CreateNamespace=true` (repeatable `--sync-option`). */
  syncOption: string[];
  /** Seconds before a hook whose Pod cannot start is failed. */
  hookStartGrace?: string;
  /** Confirm up front the pruning of `Prune=confirm` objects (else such a wave waits; Ctrl-C ends it). */
  confirmPrune?: boolean;
  /** Seconds before the operation is terminated (Argo CD CLI `--timeout`); default the engine's 30 min. */
  timeout?: string;
  /** Seconds to wait for app health after the operation (default 300). */
  healthTimeout?: string;
  /** False with `--no-wait-health`: do not wait for app health (Argo CD CLI `--async`). Default true. */
  waitHealth: boolean;
}

/** Default `--health-timeout`: 300 s, as the engine's healthTimeoutMs. */
export const DEFAULT_HEALTH_TIMEOUT_MS = 300_000;

/** The JSON document `--output json` prints. */
export function syncResultJson(state: OperationState): string {
  const { phase, message, startedAt, finishedAt, health, syncResult } = state;
  const document = {
    phase,
    message,
    startedAt,
    finishedAt,
    revision: syncResult.revision,
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
  target: string,
  options: SyncCommandOptions,
  onEvent: (event: SyncEvent) => void,
  signal?: AbortSignal,
): Promise<OperationState> {
  const kc = loadKubeConfig({ kubeconfig: options.kubeconfig, context: options.context });
  const loaded = await loadManifests(target);
  const operation: SyncOperation = {
    prune: options.prune,
    dryRun: options.dryRun,
    syncOptions: options.syncOption,
  };
  const grace = secondsOption('--hook-start-grace', options.hookStartGrace);
  const timeout = secondsOption('--timeout', options.timeout);
  if (timeout === 0) throw new BotError('invalid_command', '--timeout must be more than 0 seconds');
  const healthTimeout = secondsOption('--health-timeout', options.healthTimeout) ?? DEFAULT_HEALTH_TIMEOUT_MS;
  if (options.waitHealth === false && options.healthTimeout !== undefined)
    throw new BotError('invalid_command', 'give --health-timeout or --no-wait-health, not both');
  return runOperation({
    application: options.app ?? path.basename(path.resolve(target)).replace(/\.ya?ml$/, ''),
    targets: loaded.objects,
    namespace: options.namespace ?? contextNamespaceOf(kc),
    revision: contentRevisionOf(loaded.objects),
    operation,
    cluster: createRetryingKubeCluster(kc),
    reporter: { report: async (event) => onEvent(event) },
    signal,
    // Confirmed when the operation asks, so always at or after its start (Argo CD: deletion-approved).
    ...(options.confirmPrune ? { pruneConfirmation: async () => new Date().toISOString() } : {}),
    options: {
      ...(grace === undefined ? {} : { hookStartGraceMs: grace }),
      ...(timeout === undefined ? {} : { operationTimeoutMs: timeout }),
      // Not waiting still reads the health once (HealthAssessed), without waiting for it to change.
      healthTimeoutMs: options.waitHealth === false ? 0 : healthTimeout,
    },
  }).catch(rethrowClusterError);
}

/** Rethrows a ClusterError as BotError `cluster_error` (one line for the terminal); anything else as it is. */
export function rethrowClusterError(error: unknown): never {
  if (!(error instanceof ClusterError)) throw error;
  const problem = error.transient ? 'cannot reach the cluster' : 'the cluster refused the request';
  throw new BotError('cluster_error', `${problem}: ${error.message}`, { cause: error });
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

/** A `--flag <seconds>` value in ms, or undefined when absent. @throws BotError for anything but a number ≥ 0. */
function secondsOption(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value) * 1000;
  if (value.trim() === '' || !(ms >= 0)) {
    throw new BotError('invalid_command', `${flag} must be a number of seconds, got ${value}`);
  }
  return ms;
}
