/**
 * EngineOptions — the sync engine's knobs (all durations in milliseconds) — and the tiny EngineLogger interface
 * the engine logs through (the composition root passes a pino child; tests pass nothing).
 */
import type { HealthStatus, KubeObject } from '../domain/index.js';

/** A health customization for one `group/Kind` (Argo CD `resource.customizations.health.<group>_<kind>`). */
export type HealthOverride = (obj: KubeObject) => HealthStatus | undefined;

/**
 * Health from scripts — Argo CD's Lua health checks, run outside the engine (src/health-scripts/, wired by the
 * composition root; there in a worker thread, hence the promise). Gives undefined when no script judges the
 * object. `hasOwnCheck`: the engine has a check of its own for the kind (its ports of Argo CD's Go checks); then
 * only a user's override applies, as in Argo CD, where an argocd-cm override wins over the built-in check.
 */
export type ScriptedHealth = (
  obj: KubeObject,
  context: { hasOwnCheck: boolean },
) => HealthStatus | undefined | Promise<HealthStatus | undefined>;

/** No scripts: every kind keeps the engine's own checks, and kinds without one have no health. */
const NO_SCRIPTED_HEALTH: ScriptedHealth = () => undefined;

export interface EngineOptions {
  /**
   * Whole-operation timeout; when it passes the operation is terminated and ends Failed naming the resources it
   * was still waiting for (Argo CD's `--sync-timeout`, default none there). Default 30 minutes.
   */
  operationTimeoutMs: number;
  /** How long to watch the app's resources after the operation for its health (HealthAssessed). Default 5 min. */
  healthTimeoutMs: number;
  /**
   * The start grace: a hook whose Pod cannot start (CreateContainerConfigError, ImagePullBackOff, ErrImagePull, …)
   * is failed after this long from the hook's start, naming the reason; so is a hook or a resource the wave waits
   * on whose Pod waits for a ConfigMap/Secret/ServiceAccount/PVC that this sync does not create. (One that this
   * sync creates only in a later step fails at once.) Argo CD waits forever here. Default 60 s.
   */
  hookStartGraceMs: number;
  /**
   * Pause after applying a non-final wave (Argo CD `ARGOCD_SYNC_WAVE_DELAY`, 2 s there). Default 0: Argo sleeps
   * because its next pass reads health from a cache that may not have seen the new spec yet (argo-cd #4669);
   * wavesync reads health from objects whose `metadata.generation`/`status.observedGeneration` the health checks
   * compare, and from the API server's own answer to the apply, so a stale "Healthy" cannot be read.
   */
  waveDelayMs: number;
  /**
   * Fallback poll: with no watch event for this long the engine re-reads every object it waits on (covers a
   * watch that cannot be established, e.g. a CRD kind that appeared mid-sync). Default 2 s.
   */
  pollIntervalMs: number;
  /**
   * Requests in flight at once while applying (and dry-running, and pruning) the tasks of one kind run: tasks of
   * one kind are applied concurrently through a pool of this size, and a run completes before the next kind's run
   * starts (gitops-engine). Default 32 — enough that a 10,000-object wave costs a few hundred round trips of wall
   * time, few enough not to flood an API server (kube-apiserver's default max-requests-inflight is 400).
   */
  applyConcurrency: number;
  /** Lines of a hook Pod's log kept in its ResourceResult before the hook is deleted. Default 50. */
  logTailLines: number;
  /** Use the documented argoproj.io_Application health customization for child Applications (spec §6.4). */
  applicationHealth: boolean;
  /** Health customizations by `<group>/<Kind>` (Argo CD `resource.customizations.health`), before built-ins. */
  healthOverrides: Readonly<Record<string, HealthOverride>>;
  /** Lua health scripts (argocd-cm overrides, Argo CD's built-in scripts); default none. */
  scriptedHealth: ScriptedHealth;
}

export const DEFAULT_ENGINE_OPTIONS: Readonly<EngineOptions> = {
  operationTimeoutMs: 30 * 60_000,
  healthTimeoutMs: 5 * 60_000,
  hookStartGraceMs: 60_000,
  waveDelayMs: 0,
  pollIntervalMs: 2_000,
  applyConcurrency: 32,
  logTailLines: 50,
  applicationHealth: false,
  healthOverrides: {},
  scriptedHealth: NO_SCRIPTED_HEALTH,
};

/** The logging the engine needs; structured fields first, as pino takes them. */
export interface EngineLogger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** A logger that drops everything. */
export const silentLogger: EngineLogger = {
  debug() {},
  info() {},
  warn() {},
};
