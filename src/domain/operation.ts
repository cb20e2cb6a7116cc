/**
 * SyncOperation, OperationState, OperationPhase, ResultCode and ResourceResult — what one sync request is and
 * how far it got. Shapes follow Argo CD's `Application.status.operationState` (CD `pkg/apis/application/v1alpha1`)
 * and gitops-engine `pkg/sync/common/types.go`; timestamps are ISO-8601 strings so the state is JSON-serialisable
 * and can be persisted after every step.
 */
import type { ApplicationSource } from './application-source.js';
import type { HealthStatus } from './health-status.js';
import type { HookType, SyncPhase, SyncWave } from './sync-phase.js';

/** Phase of a whole operation, also used as the phase of one hook (`hookPhase`). */
const OPERATION_PHASES = ['Running', 'Terminating', 'Failed', 'Error', 'Succeeded'] as const;
export type OperationPhase = (typeof OPERATION_PHASES)[number];

/** True for the terminal phases Succeeded, Failed and Error. */
export function isCompleted(phase: OperationPhase): boolean {
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Error';
}

/** Result of one task (gitops-engine `ResultCode`). */
const RESULT_CODES = ['Synced', 'SyncFailed', 'Pruned', 'PruneSkipped'] as const;
export type ResultCode = (typeof RESULT_CODES)[number];

/** Comparison status of a resource or an Application. */
export type SyncStatusCode = 'Synced' | 'OutOfSync' | 'Unknown';

/** One resource named by a selective sync (`--resource GROUP:KIND:NAME`); hooks do not run in selective syncs. */
export interface SyncOperationResource {
  group: string;
  kind: string;
  name: string;
  namespace?: string;
}

/** One sync request: what to sync and how. This is what travels in a queued job. */
export interface SyncOperation {
  /** Requested revision (branch, tag, SHA); undefined means the Application's targetRevision. */
  revision?: string;
  /** Delete live resources that are no longer in the manifests. */
  prune: boolean;
  /** Validate and dry-run every task, apply nothing. */
  dryRun: boolean;
  /** Selective sync: only these resources, and no hooks. */
  resources?: SyncOperationResource[];
  /** Sync options, e.g. `CreateNamespace=true`, `PruneLast=true`, `ServerSideApply=true`, `ApplyOutOfSyncOnly=true`. */
  syncOptions: string[];
  /**
   * The source to sync instead of the Application's `spec.source` (Argo CD's `SyncOperation.source`): a rollback
   * syncs the source its history entry recorded. Undefined: the Application's current source.
   */
  source?: ApplicationSource;
  /** A multi-source Application's sources to sync instead of its `spec.sources` (Argo CD's `SyncOperation.sources`). */
  sources?: ApplicationSource[];
}

/** The recorded outcome of one task (a resource or a hook in one phase), in first-insertion order. */
export interface ResourceResult {
  group: string;
  version: string;
  kind: string;
  namespace: string;
  name: string;
  syncPhase: SyncPhase;
  wave: SyncWave;
  /** Result code once the task was applied/pruned; undefined while pending. */
  status?: ResultCode;
  message: string;
  /** For hooks: the hook type that produced this task (equals `syncPhase`); undefined for plain resources. */
  hookType?: HookType;
  /** For hooks (and resources being waited on): Running, Succeeded, Failed, Error, Terminating. */
  hookPhase?: OperationPhase;
  /** ISO-8601 time the task was first applied. */
  startedAt?: string;
  /** ISO-8601 time the task completed. */
  finishedAt?: string;
  /** For hooks: last lines of the hook Pod's log, kept before the hook object is deleted (bounded). */
  logTail?: string[];
}

/** Results of a sync operation. */
interface SyncResult {
  /** Resolved revision (git SHA, or a content hash for directory sources). */
  revision: string;
  resources: ResourceResult[];
  /**
   * The source as synced (Argo CD's `SyncOperationResult.source`): repoURL, path, targetRevision, chart and the helm
   * values/parameters, directory and kustomize options in effect. Set by the worker once the operation ran.
   */
  source?: ApplicationSource;
  /** A multi-source Application's sources as synced (Argo CD's `SyncOperationResult.sources`), in order. */
  sources?: ApplicationSource[];
}

/**
 * The whole state of one operation; serialisable and persisted after every step so another process can resume.
 * `health` is wavesync's addition: the app health observed after the operation, separate from the sync outcome.
 */
export interface OperationState {
  operation: SyncOperation;
  phase: OperationPhase;
  message: string;
  syncResult: SyncResult;
  /** ISO-8601. Also the source of the generateName suffix of hooks (Argo CD §5.1). */
  startedAt: string;
  finishedAt?: string;
  health?: HealthStatus;
}
