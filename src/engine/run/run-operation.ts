/**
 * runOperation — run one sync operation to the end: loop the re-entrant pass (sync-pass.ts) over a serialisable
 * OperationState, persisting it after every pass and sleeping between passes until a watch event (or the polling
 * fallback) says something changed. Then watch the app's health (HealthAssessed). Resume by passing the persisted
 * state as `initialState`: the operation continues where it stopped and never creates a hook twice; a completed
 * state is not run again — only what followed its last persist is (OperationCompleted, and the app health when
 * the state has none).
 * Abort `signal` → terminate ("Operation terminated"; running hooks stopped; no SyncFail hooks). After
 * `operationTimeoutMs` → terminate naming the resources still waited for.
 */
import {
  DEFAULT_RESOURCE_TRACKING,
  isCompleted,
  type NamespaceMetadata,
  type OperationState,
  type ResourceTracking,
  type SyncEvent,
  type SyncOperation,
} from '../../domain/index.js';
import type { Cluster } from '../cluster.js';
import type { IgnoreDifferencesRule } from '../diff/ignore-differences.js';
import {
  DEFAULT_ENGINE_OPTIONS,
  type EngineLogger,
  type EngineOptions,
  silentLogger,
} from '../engine-options.js';
import { assessAppHealth } from '../health/app-health.js';
import { LiveCache } from '../live-cache.js';
import type { PlanWarning } from '../plan-warning.js';
import { messageOf } from '../retry.js';
import { newOperationState, newRunMemory, nowIso, type SyncContext } from '../sync-context.js';
import type { SourcedObject } from '../sync-task.js';
import { resultOf } from '../task-results.js';
import { Wakeup } from '../wakeup.js';
import { planPass } from './plan-pass.js';
import { copyOperationState } from './state-copy.js';
import { syncPass } from './sync-pass.js';
import { terminateOperation } from './terminate.js';
import { timeoutMessage } from './timeout-message.js';
import { announceCompletedWaves } from './wave-events.js';

export interface RunOperationInput {
  /** Application name: what the tracking id (or label) of every applied object names. */
  application: string;
  /**
   * How objects are marked as the Application's and found again (wavesync.yaml `resourceTracking`, argocd-cm's
   * `application.resourceTrackingMethod`); default Argo CD 3.x's annotation tracking.
   */
  tracking?: ResourceTracking;
  /** Desired objects (rendered manifests) at the operation's revision. */
  targets: SourcedObject[];
  /** Destination namespace given to objects without one. */
  namespace: string;
  /** Resolved revision (git SHA or content hash); names generateName hooks. */
  revision: string;
  operation: SyncOperation;
  /**
   * The Application's compiled `spec.ignoreDifferences` (parseIgnoreDifferences). With the sync option
   * `RespectIgnoreDifferences=true` the ignored fields of an existing object are applied with their live values,
   * so the sync never reverts them (Argo CD). Default none.
   */
  ignoreDifferences?: readonly IgnoreDifferencesRule[];
  /**
   * `spec.syncPolicy.managedNamespaceMetadata`: labels and annotations of the Namespace a `CreateNamespace=true` sync
   * creates. Default none.
   */
  managedNamespaceMetadata?: NamespaceMetadata;
  /**
   * Fallback warnings found before the engine (rendering, the Application's sync options); announced in
   * OperationStarted `fallbacks` with the planner's own. Default none.
   */
  warnings?: readonly PlanWarning[];
  cluster: Cluster;
  reporter: { report(event: SyncEvent): Promise<void> };
  /** State persisted by a previous process of the same operation (resume). */
  initialState?: OperationState;
  /** Called after every pass with the new state (and once more with the app health). */
  persist?: (state: OperationState) => Promise<void>;
  /** Abort = terminate the operation. */
  signal?: AbortSignal;
  /**
   * When a user last confirmed pruning for this Application (ISO time), or undefined: Argo CD's
   * `argocd.argoproj.io/deletion-approved` annotation. A wave whose prunes include `Prune=confirm` objects waits
   * until this is at or after the operation's start (spec §4.7 step 2); asked once per pass while waiting.
   * Default: never confirmed.
   */
  pruneConfirmation?: () => Promise<string | undefined>;
  options?: Partial<EngineOptions>;
  logger?: EngineLogger;
}

function contextOf(input: RunOperationInput, options: EngineOptions, wake: Wakeup): SyncContext {
  const logger = input.logger ?? silentLogger;
  return {
    application: input.application,
    namespace: input.namespace,
    tracking: input.tracking ?? DEFAULT_RESOURCE_TRACKING,
    revision: input.revision,
    targets: input.targets,
    operation: input.operation,
    ignoreDifferences: input.ignoreDifferences ?? [],
    ...(input.managedNamespaceMetadata ? { managedNamespaceMetadata: input.managedNamespaceMetadata } : {}),
    warnings: input.warnings ?? [],
    cluster: input.cluster,
    live: new LiveCache(input.cluster, () => wake.notify()),
    options,
    logger,
    now: () => new Date(),
    memory: newRunMemory(),
    pruneConfirmation: input.pruneConfirmation ?? (async () => undefined),
    ...(input.signal ? { signal: input.signal } : {}),
    async emit(event) {
      try {
        await input.reporter.report(event);
      } catch (error) {
        logger.warn({ event: event.type, error: messageOf(error) }, 'reporter failed');
      }
    },
  };
}

async function terminatePass(
  ctx: SyncContext,
  previous: OperationState,
  message: string,
): Promise<OperationState> {
  const state = await copyOperationState(previous);
  const { tasks } = await planPass(ctx, state.startedAt);
  await terminateOperation(ctx, state, tasks, message);
  await announceCompletedWaves(ctx, state, tasks, true, message);
  return state;
}

/** Loops passes until the operation is completed; returns the final state (without health). */
async function runPasses(ctx: SyncContext, input: RunOperationInput, wake: Wakeup, first: OperationState) {
  const persist = input.persist ?? (async () => {});
  const deadline = Date.parse(first.startedAt) + ctx.options.operationTimeoutMs;
  let state = first;
  while (!isCompleted(state.phase)) {
    if (input.signal?.aborted || state.phase === 'Terminating') {
      state = await terminatePass(ctx, state, 'Operation terminated');
    } else if (Date.now() >= deadline) {
      state = await terminatePass(ctx, state, await timeoutMessage(ctx, state));
    } else {
      wake.reset();
      state = await syncPass(ctx, state);
    }
    await persist(state);
    if (isCompleted(state.phase) || ctx.memory.applied) continue;
    const woken = await wake.wait(Math.min(ctx.options.pollIntervalMs, deadline - Date.now()), input.signal);
    if (!woken) ctx.live.invalidate();
  }
  return state;
}

/** Watches the app's health after the operation (HealthAssessed) and returns the state with `health`. */
async function withAppHealth(
  ctx: SyncContext,
  input: RunOperationInput,
  state: OperationState,
  wake: Wakeup,
): Promise<OperationState> {
  const { tasks } = await planPass(ctx, state.startedAt);
  const applied = new Set(tasks.filter((t) => resultOf(state, t)?.status === 'Synced'));
  const timeout = input.operation.dryRun || applied.size === 0 ? 0 : ctx.options.healthTimeoutMs;
  const finishedAt = Date.now();
  const appHealth = await assessAppHealth(ctx, tasks, applied, wake, timeout, input.signal);
  const final = { ...state, health: appHealth.health };
  // Reported before it is persisted, like every step: a reporter that keeps its lines durably (the Slack thread's
  // outbox) has the summary with its health before a resumed job could find the operation final and report only
  // its outcome.
  await ctx.emit({ type: 'HealthAssessed', at: nowIso(ctx), ...appHealth, afterMs: Date.now() - finishedAt });
  await input.persist?.(final);
  return final;
}

export async function runOperation(input: RunOperationInput): Promise<OperationState> {
  const options: EngineOptions = { ...DEFAULT_ENGINE_OPTIONS, ...input.options };
  const wake = new Wakeup();
  const ctx = contextOf(input, options, wake);
  const operationStart = new Date().toISOString();
  const initial = input.initialState ?? newOperationState(input.operation, input.revision, operationStart);
  try {
    const state = await runPasses(ctx, input, wake, initial);
    const durationMs = Date.parse(state.finishedAt ?? nowIso(ctx)) - Date.parse(state.startedAt);
    await ctx.emit({
      type: 'OperationCompleted',
      at: nowIso(ctx),
      phase: state.phase,
      message: state.message,
      durationMs,
      state,
    });
    // A resumed state that already has its health was finished: nothing is left but to report its outcome.
    if (state.health) return state;
    return await withAppHealth(ctx, input, state, wake);
  } finally {
    ctx.live.stop();
  }
}
