/**
 * The work behind `wavesync sync` (loaded lazily so other commands start without @kubernetes/client-node):
 * load the manifests, build the Cluster adapter from the kubeconfig, run the operation.
 */
import path from 'node:path';
import { BotError, type OperationState, type SyncEvent, type SyncOperation } from '../domain/index.js';
import { ClusterError, type PlanWarning, runOperation } from '../engine/index.js';
import { createKubeCluster } from '../kube/kube-cluster.js';
import { contextNamespaceOf, loadKubeConfig } from '../kube/load-kube-config.js';
import { contentRevisionOf, loadManifests } from '../manifests/index.js';
import { planLoaded } from './plan-application.js';

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
}

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
  onWarning: (warning: PlanWarning) => void = () => {},
): Promise<OperationState> {
  const kc = loadKubeConfig({ kubeconfig: options.kubeconfig, context: options.context });
  const loaded = await loadManifests(target);
  const namespace = options.namespace ?? contextNamespaceOf(kc);
  // Argo CD's silent fallbacks (unknown hook types, policies, sync options), said before anything is applied.
  for (const warning of planLoaded(loaded, namespace, options.syncOption).warnings) onWarning(warning);
  const operation: SyncOperation = {
    prune: options.prune,
    dryRun: options.dryRun,
    syncOptions: options.syncOption,
  };
  const grace = secondsOption('--hook-start-grace', options.hookStartGrace);
  const timeout = secondsOption('--timeout', options.timeout);
  if (timeout === 0) throw new BotError('invalid_command', '--timeout must be more than 0 seconds');
  return runOperation({
    application: options.app ?? path.basename(path.resolve(target)).replace(/\.ya?ml$/, ''),
    targets: loaded.objects,
    namespace,
    revision: contentRevisionOf(loaded.objects),
    operation,
    cluster: createKubeCluster(kc),
    reporter: { report: async (event) => onEvent(event) },
    signal,
    // Confirmed when the operation asks, so always at or after its start (Argo CD: deletion-approved).
    ...(options.confirmPrune ? { pruneConfirmation: async () => new Date().toISOString() } : {}),
    options: {
      ...(grace === undefined ? {} : { hookStartGraceMs: grace }),
      ...(timeout === undefined ? {} : { operationTimeoutMs: timeout }),
    },
  }).catch((error: unknown) => {
    if (!(error instanceof ClusterError)) throw error;
    const problem = error.transient ? 'cannot reach the cluster' : 'the cluster refused the request';
    throw new BotError('cluster_error', `${problem}: ${error.message}`, { cause: error });
  });
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
