/**
 * The SyncFail procedure (spec §4.9, Argo CD v3.4+ executeSyncFailPhase): build the failure message (base +
 * ", reason: " + distinct messages of SyncFailed results); no SyncFail hooks → Failed; all SyncFail hooks done →
 * Failed (+ "\none or more SyncFail hooks failed, reason: …" when one could not be applied); otherwise start the
 * pending SyncFail hooks in one runTasks call and stay Running until they complete.
 */
import type { OperationState } from '../../domain/index.js';
import { runTasks } from '../steps/run-tasks.js';
import { nowIso, type SyncContext, taskRefOf } from '../sync-context.js';
import type { SyncTask } from '../sync-task.js';
import { resultOf, taskStateOf } from '../task-results.js';
import { waitingForMessage } from './running-message.js';

function failedApplyMessages(state: OperationState, tasks: readonly SyncTask[]): string[] {
  const messages = tasks
    .map((t) => resultOf(state, t))
    .filter((r) => r?.status === 'SyncFailed')
    .map((r) => r!.message);
  return [...new Set(messages)];
}

/** Terminal phase for the operation (sets finishedAt). */
export function completeOperation(
  ctx: SyncContext,
  state: OperationState,
  phase: 'Succeeded' | 'Failed' | 'Error',
  message: string,
): void {
  state.phase = phase;
  state.message = message;
  state.finishedAt = nowIso(ctx);
}

/** Failure messages of every failed non-SyncFail task (for the reason list). */
function failureReasons(state: OperationState, tasks: readonly SyncTask[]): string[] {
  const reasons = failedApplyMessages(state, tasks);
  for (const task of tasks) {
    const result = resultOf(state, task);
    if ((result?.hookPhase === 'Failed' || result?.hookPhase === 'Error') && result.status !== 'SyncFailed') {
      if (result.message && !reasons.includes(result.message)) reasons.push(result.message);
    }
  }
  return reasons;
}

export async function executeSyncFailPhase(
  ctx: SyncContext,
  state: OperationState,
  tasks: readonly SyncTask[],
  baseMessage: string,
): Promise<void> {
  const syncFail = tasks.filter((t) => t.phase === 'SyncFail');
  const others = tasks.filter((t) => t.phase !== 'SyncFail');
  const reasons = failureReasons(state, others);
  const message = reasons.length > 0 ? `${baseMessage}, reason: ${reasons.join(', ')}` : baseMessage;
  if (syncFail.length === 0) return completeOperation(ctx, state, 'Failed', message);
  if (syncFail.every((t) => taskStateOf(state, t) === 'completed')) {
    const failedHooks = failedApplyMessages(state, syncFail);
    const suffix =
      failedHooks.length > 0 ? `\none or more SyncFail hooks failed, reason: ${failedHooks.join(', ')}` : '';
    return completeOperation(ctx, state, 'Failed', message + suffix);
  }
  const toStart = syncFail.filter((t) => taskStateOf(state, t) === 'pending');
  if (toStart.length > 0) {
    await ctx.emit({ type: 'SyncFailStarted', at: nowIso(ctx), tasks: toStart.map(taskRefOf) });
    await runTasks(ctx, state, toStart);
  }
  state.phase = 'Running';
  state.message = waitingForMessage(syncFail.filter((t) => taskStateOf(state, t) === 'running'));
}
