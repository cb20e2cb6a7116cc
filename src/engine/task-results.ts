/**
 * Per-task progress kept in OperationState.syncResult.resources (spec §3.5, §4.12): a task is *pending* without
 * a result (or a result without hookPhase), *running* with hookPhase Running, *completed* with Succeeded, Failed
 * or Error. Results keep first-insertion order.
 */
import type { OperationPhase, OperationState, ResourceResult, ResultCode } from '../domain/index.js';
import { resultKeyOf, type SyncTask } from './sync-task.js';
import { ITEMS_PER_YIELD, type TimeSlice } from './time-slice.js';

export type TaskState = 'pending' | 'running' | 'completed';

function keyOfResult(r: ResourceResult): string {
  return resultKeyOf({
    group: r.group,
    kind: r.kind,
    namespace: r.namespace,
    name: r.name,
    phase: r.syncPhase,
  });
}

/**
 * Results by task key, per results array (a pass works on its own structuredClone of the state, so each array
 * gets its own index). Results are only ever appended (recordResult), so the index reads just the entries added
 * since it last looked: a lookup is O(1), not a scan of every result (which made a pass over N tasks cost N²).
 */
const indexes = new WeakMap<ResourceResult[], { byKey: Map<string, ResourceResult>; seen: number }>();

function indexOf(results: ResourceResult[], upTo = results.length): Map<string, ResourceResult> {
  let index = indexes.get(results);
  if (index === undefined || index.seen > results.length) {
    index = { byKey: new Map(), seen: 0 };
    indexes.set(results, index);
  }
  for (; index.seen < upTo; index.seen++) {
    const r = results[index.seen]!;
    const key = keyOfResult(r);
    if (!index.byKey.has(key)) index.byKey.set(key, r);
  }
  return index.byKey;
}

/**
 * Indexes `results` now, in time slices: a pass's fresh copy of 20,000 results was indexed in one piece by its
 * first `resultOf` (tens of ms of CPU, more under load, on every pass). Later lookups read the index.
 */
export async function indexResultsSliced(results: ResourceResult[], slice: TimeSlice): Promise<void> {
  for (let end = 0; end < results.length; ) {
    if (slice.due()) await slice.pause();
    end = Math.min(results.length, end + ITEMS_PER_YIELD);
    indexOf(results, end);
  }
}

/** Finds the recorded result of a task. */
export function resultOf(state: OperationState, task: SyncTask): ResourceResult | undefined {
  return indexOf(state.syncResult.resources).get(resultKeyOf(task));
}

export function taskStateOf(state: OperationState, task: SyncTask): TaskState {
  const phase = resultOf(state, task)?.hookPhase;
  if (phase === undefined) return 'pending';
  return phase === 'Running' || phase === 'Terminating' ? 'running' : 'completed';
}

/** Creates or updates the result of a task (insertion order is kept). */
export function recordResult(
  state: OperationState,
  task: SyncTask,
  update: Partial<ResourceResult> & { message?: string },
): ResourceResult {
  let result = resultOf(state, task);
  if (result === undefined) {
    result = {
      group: task.group,
      version: task.version,
      kind: task.kind,
      namespace: task.namespace,
      name: task.name,
      syncPhase: task.phase,
      wave: task.wave,
      message: '',
      ...(task.isHook ? { hookType: task.phase } : {}),
    };
    state.syncResult.resources.push(result);
  }
  Object.assign(result, update);
  return result;
}

/** Records a completed apply/prune outcome with the hook phase Argo CD assigns to it (§4.12). */
export function recordOutcome(
  state: OperationState,
  task: SyncTask,
  status: ResultCode,
  message: string,
  at: string,
): ResourceResult {
  const hookPhase: OperationPhase =
    status === 'SyncFailed' ? 'Failed' : status === 'Synced' ? 'Running' : 'Succeeded';
  const done = hookPhase !== 'Running';
  return recordResult(state, task, {
    status,
    message,
    hookPhase,
    startedAt: resultOf(state, task)?.startedAt ?? at,
    ...(done ? { finishedAt: at } : {}),
  });
}

/** True when the task completed but not successfully. */
export function isFailedTask(state: OperationState, task: SyncTask): boolean {
  const phase = resultOf(state, task)?.hookPhase;
  return phase === 'Failed' || phase === 'Error';
}

/** Tasks of the SyncFail phase vs the rest. */
export function splitSyncFail(tasks: readonly SyncTask[]): { syncFail: SyncTask[]; others: SyncTask[] } {
  return {
    syncFail: tasks.filter((t) => t.phase === 'SyncFail'),
    others: tasks.filter((t) => t.phase !== 'SyncFail'),
  };
}
