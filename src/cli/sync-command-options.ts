/** The options of `wavesync sync` (src/cli/commands/sync.ts), shared by the path and the --app forms. */
import { BotError, type TrackingMethod } from '../domain/index.js';

export interface SyncCommandOptions {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
  prune: boolean;
  dryRun: boolean;
  output: 'text' | 'json';
  /** Sync this Application of wavesync.yaml (as `/sync NAME`) instead of a path: see sync-application.ts. */
  app?: string;
  /** wavesync.yaml for --app, and for a path its health: scripts (default: $WAVESYNC_CONFIG). */
  config?: string;
  /** For a path: Argo CD's resource_customizations folder, its built-in health scripts (wins over --config's). */
  resourceCustomizations?: string;
  /** With --app: branch, tag or SHA instead of the Application's targetRevision. */
  revision?: string;
  /**
   * For a path: the Application name its objects are tracked by (the tracking id's `<app>`, or the label's value
   * with label tracking); default the path's name.
   */
  trackingLabel?: string;
  /** For a path: how objects are tracked (argocd-cm `application.resourceTrackingMethod`); default annotation. */
  trackingMethod?: TrackingMethod;
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

/**
 * A `--flag <seconds>` value in ms, or undefined when absent.
 * @throws BotError invalid_command for anything but a number ≥ 0: `"abc" is not a number of seconds (--timeout):
 * give seconds, like --timeout 300`.
 */
function secondsOption(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value) * 1000;
  if (value.trim() === '' || !(ms >= 0)) {
    throw new BotError('invalid_command', `"${value}" is not a number of seconds (${flag})`, {
      fix: `give seconds, like ${flag} 300`,
    });
  }
  return ms;
}

/** The timing flags of `wavesync sync`, in ms; undefined where the flag was not given. */
export interface SyncTimings {
  hookStartGraceMs: number | undefined;
  operationTimeoutMs: number | undefined;
  /** 0 with `--no-wait-health`. */
  healthTimeoutMs: number | undefined;
}

/**
 * The timing flags checked together, before anything is loaded or any cluster is contacted.
 * @throws BotError invalid_command for a value that is not seconds (secondsOption), `--timeout 0`, or both
 * `--health-timeout` and `--no-wait-health`.
 */
export function syncTimings(options: SyncCommandOptions): SyncTimings {
  const hookStartGraceMs = secondsOption('--hook-start-grace', options.hookStartGrace);
  const operationTimeoutMs = secondsOption('--timeout', options.timeout);
  if (operationTimeoutMs === 0) {
    throw new BotError('invalid_command', '--timeout must be more than 0 seconds', {
      fix: 'give seconds, like --timeout 300',
    });
  }
  const healthTimeoutMs = secondsOption('--health-timeout', options.healthTimeout);
  if (options.waitHealth === false && options.healthTimeout !== undefined) {
    throw new BotError('invalid_command', 'give --health-timeout or --no-wait-health, not both');
  }
  return {
    hookStartGraceMs,
    operationTimeoutMs,
    healthTimeoutMs: options.waitHealth === false ? 0 : healthTimeoutMs,
  };
}
