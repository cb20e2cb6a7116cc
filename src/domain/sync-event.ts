/**
 * SyncEvent — the typed progress events the sync engine emits for every step, in order. The Slack reporter,
 * the terminal renderer and the queue's persistence all consume the same events. All times are ISO-8601
 * strings, all durations are milliseconds.
 */
import type { HealthStatus } from './health-status.js';
import type { OperationPhase, OperationState, ResultCode, SyncOperation } from './operation.js';
import type { HookType, SyncPhase, SyncWave } from './sync-phase.js';

/** A resource or hook as events name it. */
export interface TaskRef {
  group: string;
  kind: string;
  namespace: string;
  name: string;
  isHook: boolean;
  isPrune: boolean;
}

/** One (phase, wave) step of the plan. */
export interface WaveRef {
  phase: SyncPhase;
  wave: SyncWave;
  /** 1-based position among all steps of this operation (SyncFail steps excluded), and the total. */
  index: number;
  total: number;
}

export type SyncEvent =
  | {
      type: 'OperationStarted';
      at: string;
      application: string;
      revision: string;
      /** The symbolic ref `revision` was resolved from (`main`), for displayRevision; absent when unknown. */
      ref?: string;
      operation: SyncOperation;
      /** Every step the operation plans to run, in order (SyncFail excluded). */
      waves: (WaveRef & { tasks: TaskRef[] })[];
      /** True when a previous process already started this operation and this run resumes it. */
      resumed: boolean;
      /**
       * Plan warnings worth a line before anything runs (absent = none): Pods that read an object this sync creates
       * only in a later step (the engine's reference lint), e.g. `PreSync Job/migrate reads ConfigMap/env, …`.
       */
      warnings?: string[];
      /**
       * Argo CD's silent fallbacks in the manifests and the Application (absent = none), each with its place, as
       * `wavesync plan` warns of them: `Job/migrate: argocd.argoproj.io/hook: unknown hook type "PreSynk" (did you
       * mean PreSync?); Argo CD ignores it, … (app/migrate.yaml:1)`, a sync-wave "1.5" run as wave 0, a misspelled
       * sync option. Argo CD's behaviour stays; the warning says it.
       */
      fallbacks?: string[];
    }
  | { type: 'WaveStarted'; at: string; wave: WaveRef; tasks: TaskRef[] }
  | { type: 'ResourceApplied'; at: string; wave: WaveRef; task: TaskRef; status: ResultCode; message: string }
  | { type: 'HookStarted'; at: string; wave: WaveRef; task: TaskRef; hookType: HookType }
  | {
      type: 'HookFinished';
      at: string;
      wave: WaveRef;
      task: TaskRef;
      hookType: HookType;
      hookPhase: OperationPhase;
      message: string;
      durationMs: number;
      /** Last lines of the hook Pod's log (bounded), for failures and debugging. */
      logTail: string[];
    }
  | {
      type: 'WaveCompleted';
      at: string;
      wave: WaveRef;
      durationMs: number;
      /** Health of the applied resources of the wave when it completed (hooks excluded). */
      health: { task: TaskRef; health: HealthStatus }[];
      failed: boolean;
      message: string;
    }
  | {
      /**
       * A wave's prunes include objects with `Prune=confirm` and nobody has confirmed pruning since the operation
       * started: the wave waits (spec §4.7 step 2). Emitted once per process when the wait begins.
       */
      type: 'PruneConfirmationRequired';
      at: string;
      wave: WaveRef;
      tasks: TaskRef[];
    }
  | {
      /**
       * A wave waits on running hooks or resources: why, per waiting object (e.g. `Deployment/web 0/1 ready:
       * ImagePullBackOff (registry.example/app:does-not-exist)`). Emitted when the reasons change, not on a timer.
       */
      type: 'WaveWaiting';
      at: string;
      wave: WaveRef;
      waiting: { task: TaskRef; reason: string }[];
    }
  | { type: 'SyncFailStarted'; at: string; tasks: TaskRef[] }
  | {
      type: 'OperationCompleted';
      at: string;
      phase: OperationPhase;
      message: string;
      durationMs: number;
      state: OperationState;
      /**
       * Set (by the queue, not the engine) when a person terminated the operation with `/sync cancel` or the
       * Cancel button: who, and the reason they gave. The phase stays Argo CD's (Failed, "Operation terminated");
       * reporters show it as cancelled, not as a failure.
       */
      cancelledBy?: CancelledBy;
    }
  | {
      /**
       * After the operation, the app-health wait found resources not Healthy yet: which, and why (e.g.
       * `Deployment/web 0/1 ready: Pod web-5d9f (container web) cannot start: CreateContainerConfigError:
       * configmap "app-env" not found`). Emitted when the wait starts and whenever the reasons change; a
       * HealthAssessed follows. `timeoutMs`: how long the wait lasts at most from the operation's end.
       */
      type: 'HealthWaiting';
      at: string;
      timeoutMs: number;
      waiting: { task: TaskRef; reason: string }[];
    }
  | {
      /** App health observed after the operation, separate from the sync outcome. */
      type: 'HealthAssessed';
      at: string;
      health: HealthStatus;
      /** Time from the operation's end until this health was reached (or the timeout). */
      afterMs: number;
      /** Resources that are not Healthy, with their health. */
      unhealthy: { task: TaskRef; health: HealthStatus }[];
    }
  | {
      /**
       * Deleting an Application (`/sync delete`): one sync wave's resources were deleted, highest wave first
       * (Argo CD controller/sort_delete.go), with this propagation policy.
       */
      type: 'ResourcesDeleted';
      at: string;
      syncWave: SyncWave;
      propagationPolicy: 'Foreground' | 'Background';
      resources: TaskRef[];
    }
  | {
      /** Deleting an Application: a PreDelete / PostDelete hook finished (Healthy, or Degraded / timed out). */
      type: 'DeletionHookFinished';
      at: string;
      hookType: 'PreDelete' | 'PostDelete';
      task: TaskRef;
      hookPhase: 'Succeeded' | 'Failed';
      message: string;
    }
  | {
      /** Deleting an Application: what stays in the cluster, and why (`Delete=false`, `helm.sh/resource-policy: keep`, …). */
      type: 'ResourcesKept';
      at: string;
      kept: { task: TaskRef; reason: string }[];
    };

/** Who cancelled an operation (Slack user id and name) and why, when they said. */
export interface CancelledBy {
  userId: string;
  userName: string;
  reason?: string;
}
