/**
 * A job's saved OperationState once its operation completed: whether it is final (a sync's needs its Application
 * health too; a deletion's does not), and saying its OperationCompleted again from it (./sync-processor.ts).
 */
import { isCompleted, type OperationState } from '../domain/index.js';
import type { SyncReporter } from './sync-reporter.js';
import type { SyncRequest } from './sync-request.js';

/** A completed OperationState (phase Succeeded, Failed or Error, and its finishedAt). */
export function isCompletedState(
  state: OperationState | undefined,
): state is OperationState & { finishedAt: string } {
  return state?.finishedAt !== undefined && isCompleted(state.phase);
}

/**
 * True when a persisted state needs no more work from the runner. A sync's operation is completed before its
 * Application health is assessed (the engine persists the completed state, then watches the health and persists it
 * again with `health`): a completed sync without `health` was saved by a worker that stopped in between, and is
 * not final — the runner finishes it (health, HealthAssessed) without running the operation again, or the job ends
 * from it with health Unknown when the runner cannot (sync-processor.ts `endedWithoutHealth`). A deletion
 * (request.deletion) has no health step: its completed state is final.
 */
export function isFinished(
  state: OperationState | undefined,
  request: SyncRequest,
): state is OperationState & { finishedAt: string } {
  if (!isCompletedState(state)) return false;
  return request.deletion !== undefined || state.health !== undefined;
}

/** Say a saved final state's OperationCompleted (again: the thread's lines are keyed, so it is posted once). */
export async function reportCompleted(
  reporter: SyncReporter,
  state: OperationState & { finishedAt: string },
): Promise<void> {
  const durationMs = Math.max(0, Date.parse(state.finishedAt) - Date.parse(state.startedAt)) || 0;
  await reporter.report({
    type: 'OperationCompleted',
    at: state.finishedAt,
    phase: state.phase,
    message: state.message,
    durationMs,
    state,
  });
}
