/**
 * runTasks — execute one wave's pending tasks (spec §4.7): release old hook finalizers → prune (all prunes of
 * the wave, concurrently, before anything else) → BeforeHookCreation deletions (pending result) → apply the
 * rest in consecutive runs of the same kind (runs one after another — a run's applies are all answered before the
 * next run starts —, tasks of a run concurrently through a pool of `options.applyConcurrency`; later runs are still
 * attempted after a failure) → after a CRD run, wait until each CRD whose kind this sync applies is Established.
 * A live hook that carries this operation's annotation was created by a previous process of this same
 * operation: it is adopted, never deleted and created again.
 */
import { HOOK_FINALIZER, OPERATION_ANNOTATION, type OperationState } from '../../domain/index.js';
import { releaseHook } from '../hooks/hook-cleanup.js';
import { messageOf, withRetry } from '../retry.js';
import { nowIso, objectRefOf, type SyncContext, taskRefOf, waveRefOf } from '../sync-context.js';
import { propagationPolicyOf } from '../sync-options.js';
import { isPruneTask, type SyncTask } from '../sync-task.js';
import { recordOutcome, recordResult, taskStateOf } from '../task-results.js';
import { TimeSlice } from '../time-slice.js';
import { type ApplyOutcome, applyTask } from './apply-task.js';
import { mapBounded } from './bounded-pool.js';
import { prune, recordPrune } from './prune-task.js';
import { waitForEstablishedCrds } from './wait-for-crds.js';

/** `stopped`: the operation was cancelled mid-wave; tasks not started stay pending, the next pass terminates. */
export type WaveResult = 'successful' | 'failed' | 'pending' | 'stopped';

function isOwnHook(task: SyncTask, state: OperationState): boolean {
  return task.liveObj?.metadata.annotations?.[OPERATION_ANNOTATION] === state.startedAt;
}

async function releaseOldFinalizers(
  ctx: SyncContext,
  state: OperationState,
  hooks: SyncTask[],
): Promise<boolean> {
  const old = hooks.filter(
    (t) => !isOwnHook(t, state) && (t.liveObj?.metadata.finalizers ?? []).includes(HOOK_FINALIZER),
  );
  const released = await Promise.all(old.map((t) => releaseHook(ctx, state, t)));
  return released.every(Boolean);
}

/** Deletes live hooks with BeforeHookCreation; true when some deletion is still in flight. */
async function deleteBeforeCreation(
  ctx: SyncContext,
  state: OperationState,
  hooks: SyncTask[],
): Promise<WaveResult> {
  const stale = hooks.filter(
    (t) => t.liveObj !== undefined && !isOwnHook(t, state) && t.deletePolicies.includes('BeforeHookCreation'),
  );
  let result: WaveResult = 'successful';
  await Promise.all(
    stale.map(async (task) => {
      const ref = objectRefOf(ctx, task);
      try {
        const existed = await withRetry(() =>
          ctx.cluster.delete(ref, { propagationPolicy: propagationPolicyOf(ctx.operation) }),
        );
        if (existed) {
          if (result === 'successful') result = 'pending';
        } else {
          task.liveObj = undefined;
          ctx.live.put(ref, undefined);
        }
      } catch (error) {
        recordResult(state, task, { status: 'SyncFailed', hookPhase: 'Error', message: messageOf(error) });
        result = 'failed';
      }
    }),
  );
  return result;
}

/** Applies one task (or adopts this operation's own live hook); no recording yet. */
async function applyOnly(ctx: SyncContext, state: OperationState, task: SyncTask): Promise<ApplyOutcome> {
  if (task.isHook && isOwnHook(task, state)) {
    return { ok: true, object: task.liveObj!, message: 'adopted (created earlier by this operation)' };
  }
  return applyTask(ctx, task, { dryRun: false, operationStartedAt: state.startedAt });
}

/** Records and reports one apply outcome. */
async function recordApply(
  ctx: SyncContext,
  state: OperationState,
  task: SyncTask,
  outcome: ApplyOutcome,
): Promise<void> {
  const at = nowIso(ctx);
  const wave = waveRefOf(ctx, task.phase, task.wave);
  recordOutcome(state, task, outcome.ok ? 'Synced' : 'SyncFailed', outcome.message, at);
  if (outcome.ok) task.liveObj = outcome.object;
  if (outcome.ok && task.isHook) {
    await ctx.emit({ type: 'HookStarted', at, wave, task: taskRefOf(task), hookType: task.phase });
  } else {
    const status = outcome.ok ? 'Synced' : 'SyncFailed';
    await ctx.emit({
      type: 'ResourceApplied',
      at,
      wave,
      task: taskRefOf(task),
      status,
      message: outcome.message,
    });
  }
}

/** Consecutive runs of the same kind, in the given (sorted) order. */
function kindRuns(tasks: SyncTask[]): SyncTask[][] {
  const runs: SyncTask[][] = [];
  for (const task of tasks) {
    const last = runs.at(-1);
    if (last !== undefined && last[0]!.kind === task.kind) last.push(task);
    else runs.push([task]);
  }
  return runs;
}

async function applyInKindRuns(
  ctx: SyncContext,
  state: OperationState,
  tasks: SyncTask[],
): Promise<WaveResult> {
  let result: WaveResult = 'successful';
  for (const run of kindRuns(tasks)) {
    const outcomes = await mapBounded(
      run,
      ctx.options.applyConcurrency,
      (task) => applyOnly(ctx, state, task),
      ctx.signal,
    );
    // In time slices: recording 50,000 outcomes (each a microtask) held serve's worker thread ~0.7 s in one piece.
    // No cancel signal here: every apply made is recorded.
    const slice = new TimeSlice();
    for (const [i, task] of run.entries()) {
      const outcome = outcomes[i];
      if (outcome === undefined) continue; // not started: the operation was cancelled
      if (slice.due()) await slice.pause();
      await recordApply(ctx, state, task, outcome);
      if (!outcome.ok) result = 'failed';
    }
    if (ctx.signal?.aborted) return 'stopped';
    await waitForEstablishedCrds(ctx, run);
  }
  return result;
}

/** Runs the pending tasks of one wave (or all pending SyncFail hooks). */
export async function runTasks(
  ctx: SyncContext,
  state: OperationState,
  tasks: SyncTask[],
): Promise<WaveResult> {
  const pending = tasks.filter((t) => taskStateOf(state, t) === 'pending');
  const hooks = pending.filter((t) => t.isHook);
  if (!(await releaseOldFinalizers(ctx, state, hooks))) return 'failed';
  const prunes = pending.filter(isPruneTask);
  const pruneOutcomes = await mapBounded(
    prunes,
    ctx.options.applyConcurrency,
    (t) => prune(ctx, t),
    ctx.signal,
  );
  let pruned = true;
  const slice = new TimeSlice();
  for (const [i, task] of prunes.entries()) {
    const outcome = pruneOutcomes[i];
    if (slice.due()) await slice.pause();
    if (outcome !== undefined) pruned = (await recordPrune(ctx, state, task, outcome)) && pruned;
  }
  if (!pruned) return 'failed';
  if (ctx.signal?.aborted) return 'stopped';
  const deletion = await deleteBeforeCreation(ctx, state, hooks);
  if (deletion !== 'successful') return deletion;
  ctx.memory.applied = true;
  return applyInKindRuns(
    ctx,
    state,
    pending.filter((t) => !isPruneTask(t)),
  );
}
