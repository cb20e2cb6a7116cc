/**
 * Pass step F (spec §4.6): run the first (phase, wave) that still has pending work, then decide: failed → start
 * SyncFail hooks (waiting first for tasks of the wave that are already running, as Argo CD v3.4+); successful and
 * nothing left and no hook in the wave → Succeeded "successfully synced (all tasks run)" (the final wave's
 * resources are not awaited — the post-operation health watch reports them); otherwise Running.
 */
import type { OperationState } from '../../domain/index.js';
import { deleteHooksWithPolicy } from '../hooks/hook-cleanup.js';
import { unconfirmedPrunes } from '../steps/prune-confirmation.js';
import { runTasks } from '../steps/run-tasks.js';
import { nowIso, type SyncContext, taskRefOf, waveKey, waveRefOf } from '../sync-context.js';
import type { SyncTask } from '../sync-task.js';
import { taskStateOf } from '../task-results.js';
import {
  waitingForConfirmationMessage,
  waitingForDeletionMessage,
  waitingForMessage,
} from './running-message.js';
import { completeOperation, executeSyncFailPhase } from './sync-fail.js';
import { announceWaveStarted } from './wave-events.js';

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function onFailure(
  ctx: SyncContext,
  state: OperationState,
  tasks: SyncTask[],
  current: SyncTask[],
): Promise<void> {
  const message = 'one or more objects failed to apply';
  if (current.some((t) => taskStateOf(state, t) === 'running')) {
    const syncFail = tasks.filter((t) => t.phase === 'SyncFail');
    if (syncFail.length > 0) await executeSyncFailPhase(ctx, state, tasks, message);
    state.phase = 'Running';
    state.message = waitingForMessage(current.filter((t) => taskStateOf(state, t) === 'running'));
    return;
  }
  await executeSyncFailPhase(ctx, state, tasks, message);
  if (state.phase !== 'Running') await deleteHooksWithPolicy(ctx, state, tasks, 'HookFailed');
}

export async function runNextWave(
  ctx: SyncContext,
  state: OperationState,
  tasks: SyncTask[],
  pending: SyncTask[],
): Promise<void> {
  const { phase, wave } = pending[0]!;
  const last = pending.at(-1)!;
  const finalWave = last.phase === phase && last.wave === wave;
  const current = pending.filter((t) => t.phase === phase && t.wave === wave);
  const remaining = pending.filter((t) => t.phase !== phase || t.wave !== wave);
  state.phase = 'Running';
  state.message = 'one or more tasks are running';
  await announceWaveStarted(ctx, current);
  const unconfirmed = await unconfirmedPrunes(ctx, state, current);
  if (unconfirmed.length > 0) return awaitConfirmation(ctx, state, unconfirmed);
  const result = await runTasks(ctx, state, current);
  if (result !== 'failed' && !finalWave && ctx.options.waveDelayMs > 0) await delay(ctx.options.waveDelayMs);
  if (result === 'failed') return onFailure(ctx, state, tasks, current);
  if (result === 'stopped') return; // cancelled mid-wave: the next pass terminates the operation
  if (result === 'pending') {
    state.message = waitingForDeletionMessage(current.filter((t) => t.isHook && t.liveObj !== undefined));
    return;
  }
  if (remaining.length === 0 && !current.some((t) => t.isHook)) {
    await deleteHooksWithPolicy(ctx, state, tasks, 'HookSucceeded');
    return completeOperation(ctx, state, 'Succeeded', 'successfully synced (all tasks run)');
  }
  state.message = waitingForMessage(current.filter((t) => taskStateOf(state, t) === 'running'));
}

/** The wave prunes nothing and waits (Running) for a confirmation; the wait is announced once per process. */
async function awaitConfirmation(ctx: SyncContext, state: OperationState, unconfirmed: SyncTask[]) {
  state.message = waitingForConfirmationMessage(unconfirmed);
  const { phase, wave } = unconfirmed[0]!;
  const key = waveKey(phase, wave);
  if (ctx.memory.confirmationRequested.has(key)) return;
  ctx.memory.confirmationRequested.add(key);
  await ctx.emit({
    type: 'PruneConfirmationRequired',
    at: nowIso(ctx),
    wave: waveRefOf(ctx, phase, wave),
    tasks: unconfirmed.map(taskRefOf),
  });
}
