/**
 * SyncRunner — the port through which the worker runs one operation. The composition root adapts the
 * engine's `runOperation(...)` to it; tests pass a recording step function.
 */
import type { OperationState } from '../domain/index.js';
import type { SyncReporter } from './sync-reporter.js';
import type { SyncRequest } from './sync-request.js';

/** One job's run; `R` narrows its request to a sync (SyncJob) or a deletion (DeletionJob) for their runners. */
export interface SyncRunnerContext<R extends SyncRequest = SyncRequest> {
  /** BullMQ job id (a UUID); stable across retries and resumes. */
  jobId: string;
  request: R;
  /**
   * State persisted by a previous attempt or a worker that died; undefined on the first run. It may be completed
   * but unfinished (a sync saved before its Application health was assessed): then finish it — health,
   * HealthAssessed — without running the operation again (sync-processor.ts `isFinished`).
   */
  initialState: OperationState | undefined;
  /** Receives the operation's SyncEvents; call in order and await each. */
  reporter: SyncReporter;
  /**
   * Save the state in Redis; call after every step. Rejects with `LockLostError` when another worker took the
   * job over, and with `WorkerShuttingDownError` (after saving) when this worker is stopping: the runner must
   * let both propagate so the job is resumed elsewhere from the saved state.
   */
  persist(state: OperationState): Promise<void>;
  /** Aborted when someone cancels the running job: terminate the operation (`Operation terminated`). */
  signal: AbortSignal;
  /** The application's last pruning confirmation (ISO-8601) or undefined; for the engine's `Prune=confirm` wait. */
  pruneConfirmation(): Promise<string | undefined>;
}

/**
 * Runs (or resumes) one operation and resolves with its final OperationState. A sync that fails on its
 * merits resolves with phase Failed/Error (never retried); throw an error marked transient (see
 * `isTransientError`) for infrastructure trouble that a retry can cure.
 */
export type SyncRunner = (ctx: SyncRunnerContext) => Promise<OperationState>;

/** The per-job logger a runner is given (a child of the root with `{ application, operationId }`). */
export interface RunnerLogger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}
