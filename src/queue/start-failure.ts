/**
 * A runner's operation that could not start (unknown Application, manifests that do not render, no cluster for the
 * destination, cancelled while rendering): an outcome the user must see, not a crash. The thread is told why and
 * the job ends with that state (src/sync-run, src/deletion).
 */
import type { OperationState } from '../domain/index.js';
import { recordedOperation } from './sync-request.js';
import type { SyncRunnerContext } from './sync-runner.js';

/** The engine's message for a cancelled operation (Argo CD's). */
export const TERMINATED = 'Operation terminated';

/** Tell the thread why the operation did not start, and end it with `phase` (Error by default). */
export async function reportStartFailure(
  ctx: SyncRunnerContext,
  error: unknown,
  phase: 'Error' | 'Failed' = 'Error',
): Promise<OperationState> {
  const now = new Date().toISOString();
  const operation = recordedOperation(ctx.request);
  const state: OperationState = {
    operation,
    phase,
    message: messageOf(error),
    syncResult: { revision: operation.revision ?? '', resources: [] },
    startedAt: ctx.initialState?.startedAt ?? now,
    finishedAt: now,
  };
  const durationMs = Date.parse(now) - Date.parse(state.startedAt);
  await ctx.reporter.report({
    type: 'OperationCompleted',
    at: now,
    phase,
    message: state.message,
    durationMs,
    state,
  });
  await ctx.persist(state);
  return state;
}

/** An error's message, or the thrown value in words. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
