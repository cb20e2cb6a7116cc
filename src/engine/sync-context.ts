/**
 * SyncContext — everything one process needs to run passes of one operation: the inputs, the Cluster port, the
 * live-object cache, the event sink and per-process memory (planned steps, which waves were announced). Nothing
 * here must survive a crash: OperationState (persisted after every pass) is the only durable state, and a new
 * process rebuilds this context from it (spec §4.0: "nothing is kept in memory between passes").
 */
import type {
  KubeObject,
  NamespaceMetadata,
  OperationState,
  ResourceTracking,
  SyncEvent,
  SyncOperation,
  SyncPhase,
  SyncWave,
  TaskRef,
  WaveRef,
} from '../domain/index.js';
import type { ApiResourceInfo, Cluster, ObjectRef } from './cluster.js';
import type { IgnoreDifferencesRule } from './diff/ignore-differences.js';
import type { EngineLogger, EngineOptions } from './engine-options.js';
import type { LiveCache } from './live-cache.js';
import type { PlanWarning } from './plan-warning.js';
import { isPruneTask, type SourcedObject, type SyncTask } from './sync-task.js';

export interface SyncContext {
  application: string;
  namespace: string;
  /** How the Application's objects are marked and found (tracked-objects.ts). */
  tracking: ResourceTracking;
  revision: string;
  targets: readonly SourcedObject[];
  operation: SyncOperation;
  /** The Application's compiled `spec.ignoreDifferences` (applied with `RespectIgnoreDifferences=true`). */
  ignoreDifferences: readonly IgnoreDifferencesRule[];
  /** Labels and annotations of a Namespace `CreateNamespace=true` creates (RunOperationInput). */
  managedNamespaceMetadata?: NamespaceMetadata;
  /** Fallback warnings from before the engine (RunOperationInput.warnings). */
  warnings: readonly PlanWarning[];
  cluster: Cluster;
  live: LiveCache;
  options: EngineOptions;
  logger: EngineLogger;
  emit(event: SyncEvent): Promise<void>;
  now(): Date;
  memory: RunMemory;
  /** When pruning was last confirmed (ISO time), see RunOperationInput.pruneConfirmation. */
  pruneConfirmation(): Promise<string | undefined>;
  /**
   * Aborted when the operation is cancelled (RunOperationInput.signal): the dry run, prunes and applies start no
   * new request after it, so a pass over 20,000 tasks ends within a few requests and the next pass terminates.
   */
  signal?: AbortSignal;
}

/** Per-process memory, rebuilt after a restart (derived data only). */
export interface RunMemory {
  /** Planned (phase, wave) steps, SyncFail excluded, as announced in OperationStarted. */
  steps: { phase: SyncPhase; wave: SyncWave }[];
  /** `phase/wave` keys of steps already announced with WaveStarted / WaveCompleted. */
  startedWaves: Set<string>;
  completedWaves: Set<string>;
  /** Discovery answers by `apiVersion/kind` (only positive answers are cached). */
  discovery: Map<string, ApiResourceInfo>;
  /** Result keys of tasks whose server dry run showed no change (ApplyOutOfSyncOnly). */
  unmodified: Set<string>;
  /**
   * Tracked live objects as found at the start of this process (prune candidates, see tracked-objects.ts). They
   * stay in the plan after they are pruned, so the reverse-wave order of the remaining prunes does not shift.
   */
  trackedObjects: KubeObject[] | undefined;
  /** Set when the last pass applied something, so the next pass runs without waiting for an event. */
  applied: boolean;
  /** `phase/wave` keys of waves whose PruneConfirmationRequired was emitted. */
  confirmationRequested: Set<string>;
  /**
   * Why each running task is not done yet, by result key, as of the last pass (refresh-tasks.ts), e.g.
   * `Deployment/web 0/1 ready: ImagePullBackOff (app:does-not-exist)`; announced as WaveWaiting when it changes.
   */
  waitReasons: Map<string, string>;
  /** The last announced WaveWaiting (its wave and reasons), so an unchanged one is not announced again. */
  announcedWaiting: string;
  /** The planner's fallback warnings of the last plan (buildSyncTasks), announced in OperationStarted. */
  planWarnings: PlanWarning[];
  /** Shared-resource warnings of the last plan (plan-pass.ts), announced in OperationStarted. */
  sharedResources: string[];
}

export function newRunMemory(): RunMemory {
  return {
    steps: [],
    startedWaves: new Set(),
    completedWaves: new Set(),
    discovery: new Map(),
    unmodified: new Set(),
    trackedObjects: undefined,
    applied: false,
    confirmationRequested: new Set(),
    waitReasons: new Map(),
    announcedWaiting: '',
    planWarnings: [],
    sharedResources: [],
  };
}

export function nowIso(ctx: SyncContext): string {
  return ctx.now().toISOString();
}

export function waveKey(phase: SyncPhase, wave: SyncWave): string {
  return `${phase}/${wave}`;
}

/** The WaveRef of a (phase, wave): 1-based index among the planned steps (0 for SyncFail or unplanned steps). */
export function waveRefOf(ctx: SyncContext, phase: SyncPhase, wave: SyncWave): WaveRef {
  const index = ctx.memory.steps.findIndex((s) => s.phase === phase && s.wave === wave);
  return { phase, wave, index: index + 1, total: ctx.memory.steps.length };
}

export function taskRefOf(task: SyncTask): TaskRef {
  return {
    group: task.group,
    kind: task.kind,
    namespace: task.namespace,
    name: task.name,
    isHook: task.isHook,
    isPrune: isPruneTask(task),
  };
}

/** The apiVersion of a task's object. */
export function apiVersionOf(task: Pick<SyncTask, 'group' | 'version'>): string {
  return task.group === '' ? task.version : `${task.group}/${task.version}`;
}

/** The ObjectRef of a task: namespace '' for kinds discovery says are cluster-scoped. */
export function objectRefOf(ctx: SyncContext, task: SyncTask): ObjectRef {
  const apiVersion = apiVersionOf(task);
  const info = ctx.memory.discovery.get(`${apiVersion}/${task.kind}`);
  const namespace = info && !info.namespaced ? '' : task.namespace;
  return { apiVersion, kind: task.kind, namespace, name: task.name };
}

/** A fresh OperationState for an operation starting now. */
export function newOperationState(
  operation: SyncOperation,
  revision: string,
  startedAt: string,
): OperationState {
  return {
    operation,
    phase: 'Running',
    message: '',
    syncResult: { revision, resources: [] },
    startedAt,
  };
}
