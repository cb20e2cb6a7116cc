/**
 * Pass step D (spec §4.4a): in a multi-step sync (first and last task differ in phase or wave) running resources
 * block like running hooks; in a single-step sync only hooks block. A blocking task without a live object is
 * re-read; gone → SyncFailed/Error "Resource <group>/<kind>/<name> is missing, it might have been deleted".
 * Then pruned objects still being deleted block ("waiting for deletion of …"). Returns true when the pass ends.
 */
import type { OperationState } from '../../domain/index.js';
import { messageOf } from '../retry.js';
import { nowIso, objectRefOf, type SyncContext, taskRefOf, waveRefOf } from '../sync-context.js';
import { isPruneTask, resultKeyOf, type SyncTask } from '../sync-task.js';
import { recordResult, resultOf, taskStateOf } from '../task-results.js';
import { waitingForDeletionMessage, waitingForMessage } from './running-message.js';

/** True when the task list spans more than one (phase, wave). */
export function isMultiStep(tasks: readonly SyncTask[]): boolean {
  const first = tasks[0];
  const last = tasks.at(-1);
  return (
    first !== undefined && last !== undefined && (first.phase !== last.phase || first.wave !== last.wave)
  );
}

/** Running tasks that hold the operation: hooks, plus resources in a multi-step sync. */
function blockingTasks(state: OperationState, tasks: readonly SyncTask[]): SyncTask[] {
  const multiStep = isMultiStep(tasks);
  return tasks.filter(
    (t) => taskStateOf(state, t) === 'running' && (t.isHook || (multiStep && !isPruneTask(t))),
  );
}

async function failMissing(ctx: SyncContext, state: OperationState, blocking: SyncTask[]): Promise<void> {
  for (const task of blocking.filter((t) => t.liveObj === undefined)) {
    try {
      task.liveObj = await ctx.live.fresh(objectRefOf(ctx, task));
      if (task.liveObj) continue;
      const message = `Resource ${task.group}/${task.kind}/${task.name} is missing, it might have been deleted`;
      recordResult(state, task, {
        status: 'SyncFailed',
        hookPhase: 'Error',
        message,
        finishedAt: ctx.now().toISOString(),
      });
    } catch (error) {
      recordResult(state, task, { hookPhase: 'Error', message: messageOf(error) });
    }
  }
}

/** Emits WaveWaiting with every blocking task's reason when the reasons changed since the last one. */
async function announceWaiting(ctx: SyncContext, state: OperationState, blocking: SyncTask[]): Promise<void> {
  const first = blocking[0]!;
  const waiting = blocking.map((task) => ({
    task: taskRefOf(task),
    reason:
      ctx.memory.waitReasons.get(resultKeyOf(task)) ||
      `${task.kind}/${task.name}: ${resultOf(state, task)?.message || (task.isHook ? 'running' : 'not healthy yet')}`,
  }));
  const signature = JSON.stringify([first.phase, first.wave, waiting.map((w) => w.reason)]);
  if (signature === ctx.memory.announcedWaiting) return;
  ctx.memory.announcedWaiting = signature;
  await ctx.emit({
    type: 'WaveWaiting',
    at: nowIso(ctx),
    wave: waveRefOf(ctx, first.phase, first.wave),
    waiting,
  });
}

export async function waitingRules(
  ctx: SyncContext,
  state: OperationState,
  tasks: SyncTask[],
): Promise<boolean> {
  await failMissing(ctx, state, blockingTasks(state, tasks));
  const blocking = blockingTasks(state, tasks);
  if (blocking.length > 0) {
    state.phase = 'Running';
    state.message = waitingForMessage(blocking);
    await announceWaiting(ctx, state, blocking);
    return true;
  }
  const deleting = tasks.filter(
    (t) => resultOf(state, t)?.status === 'Pruned' && t.liveObj?.metadata.deletionTimestamp !== undefined,
  );
  if (deleting.length === 0) return false;
  state.phase = 'Running';
  state.message = waitingForDeletionMessage(deleting);
  return true;
}
