/**
 * syncPass — one pass of the re-entrant sync step function (gitops-engine `Sync()`, spec §4): given the
 * OperationState of the previous pass, build and validate the tasks (A), on the first pass create the namespace
 * and dry-run everything (B), refresh running tasks (C), wait while hooks/resources are running (D), detect
 * failure or success (E), else run the next wave (F). Returns the new state; never blocks on health.
 */
import type { OperationState } from '../../domain/index.js';
import { deleteHooksWithPolicy, releaseCompletedHooks } from '../hooks/hook-cleanup.js';
import {
  createNamespace,
  dryRunSuccessMessage,
  dryRunTasks,
  namespaceCreated,
  namespaceTaskOf,
} from '../steps/dry-run.js';
import type { SyncContext } from '../sync-context.js';
import { hasSyncOption } from '../sync-options.js';
import { resultKeyOf, type SyncTask } from '../sync-task.js';
import { isFailedTask, recordResult, splitSyncFail, taskStateOf } from '../task-results.js';
import { planPass } from './plan-pass.js';
import { refreshRunningTasks } from './refresh-tasks.js';
import { runNextWave } from './run-next-wave.js';
import { copyOperationState } from './state-copy.js';
import { completeOperation, executeSyncFailPhase } from './sync-fail.js';
import { waitingRules } from './waiting-rules.js';
import { announceCompletedWaves, announceOperation } from './wave-events.js';

async function validateAndDryRun(
  ctx: SyncContext,
  state: OperationState,
  tasks: SyncTask[],
  invalid: { task: SyncTask; message: string }[],
): Promise<boolean> {
  const { sharedResources } = ctx.memory;
  // Argo CD checks before anything is applied (controller/sync.go): FailOnSharedResource=true fails the operation.
  if (
    sharedResources.length > 0 &&
    state.syncResult.resources.length === 0 &&
    hasSyncOption(ctx.operation, 'FailOnSharedResource=true')
  ) {
    completeOperation(ctx, state, 'Failed', `Shared resource found: ${sharedResources.join('; ')}`);
    return false;
  }
  if (invalid.length > 0) {
    for (const { task, message } of invalid) recordResult(state, task, { status: 'SyncFailed', message });
    const reasons = [...new Set(invalid.map((i) => i.message))].sort();
    completeOperation(
      ctx,
      state,
      'Failed',
      `one or more synchronization tasks are not valid: ${reasons.join('; ')}`,
    );
    return false;
  }
  if (state.syncResult.resources.length > 0) return true;
  const namespaceTask = ctx.operation.dryRun ? undefined : namespaceTaskOf(ctx, tasks);
  if (namespaceTask) {
    const failure = await createNamespace(ctx, state, namespaceTask);
    if (failure) {
      completeOperation(ctx, state, 'Failed', failure);
      return false;
    }
    namespaceCreated(tasks, namespaceTask.name);
  }
  const failures = await dryRunTasks(
    ctx,
    state,
    tasks.filter((t) => t !== namespaceTask),
  );
  // Cancelled during the dry run: nothing is applied; the next pass terminates the operation.
  if (ctx.signal?.aborted) return false;
  if (failures.length > 0) {
    completeOperation(
      ctx,
      state,
      'Failed',
      `one or more objects failed to apply (dry run), reason: ${failures.join(', ')}`,
    );
    return false;
  }
  if (!ctx.operation.dryRun) return true;
  completeOperation(ctx, state, 'Succeeded', dryRunSuccessMessage(tasks));
  return false;
}

/** Step E: fail (SyncFail procedure) or succeed when no work is left; returns the pending tasks otherwise. */
async function cleanupAndDetect(
  ctx: SyncContext,
  state: OperationState,
  tasks: SyncTask[],
): Promise<SyncTask[] | undefined> {
  await releaseCompletedHooks(ctx, state, tasks);
  const { others } = splitSyncFail(tasks);
  if (others.some((t) => isFailedTask(state, t))) {
    await deleteHooksWithPolicy(ctx, state, tasks, 'HookFailed');
    await executeSyncFailPhase(
      ctx,
      state,
      tasks,
      'one or more synchronization tasks completed unsuccessfully',
    );
    return undefined;
  }
  const outOfSyncOnly = ctx.operation.syncOptions.includes('ApplyOutOfSyncOnly=true');
  const pending = others.filter(
    (t) =>
      taskStateOf(state, t) === 'pending' &&
      !(outOfSyncOnly && !t.isHook && t.targetObj && t.liveObj && ctx.memory.unmodified.has(resultKeyOf(t))),
  );
  if (pending.length > 0) return pending;
  await deleteHooksWithPolicy(ctx, state, tasks, 'HookSucceeded');
  completeOperation(ctx, state, 'Succeeded', 'successfully synced (no more tasks)');
  return undefined;
}

/** One pass. `previous` is not mutated. */
export async function syncPass(ctx: SyncContext, previous: OperationState): Promise<OperationState> {
  const state = await copyOperationState(previous);
  ctx.memory.applied = false;
  const { tasks, invalid } = await planPass(ctx, state.startedAt);
  await announceOperation(ctx, state, tasks);
  if (!(await validateAndDryRun(ctx, state, tasks, invalid))) return finish(ctx, state, tasks);
  await refreshRunningTasks(ctx, state, tasks);
  if (await waitingRules(ctx, state, tasks)) return state;
  await announceCompletedWaves(ctx, state, tasks, false);
  const pending = await cleanupAndDetect(ctx, state, tasks);
  if (pending) await runNextWave(ctx, state, tasks, pending);
  return finish(ctx, state, tasks);
}

async function finish(ctx: SyncContext, state: OperationState, tasks: SyncTask[]): Promise<OperationState> {
  if (state.phase !== 'Running') await announceCompletedWaves(ctx, state, tasks, true);
  return state;
}
