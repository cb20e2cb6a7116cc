/**
 * Task order. Source: gitops-engine `pkg/sync/sync_tasks.go` (Less, Sort); spec §3.2–§3.3.
 *
 * phase (PreSync, Sync, PostSync, SyncFail) → wave (ascending) → kind order (KIND_ORDER; unknown kinds last) →
 * name (byte-wise). Go's sort leaves ties on all four keys in map order; wavesync breaks them by namespace, then
 * group (an intentional, documented divergence), so the plan is deterministic. Then dependency bubbling.
 */
import { SYNC_PHASE_ORDINAL } from '../../domain/index.js';
import type { SyncTask } from '../sync-task.js';
import { ITEMS_PER_YIELD, runAtOnce, type SlicedWork } from '../time-slice.js';
import { bubbleDependencies } from './dependency-bubbling.js';
import { kindOrderOf } from './kind-order.js';

/** Negative when `a` runs before `b`. */
export function compareSyncTasks(a: SyncTask, b: SyncTask): number {
  return (
    SYNC_PHASE_ORDINAL[a.phase] - SYNC_PHASE_ORDINAL[b.phase] ||
    a.wave - b.wave ||
    kindOrderOf(a.kind) - kindOrderOf(b.kind) ||
    compareStrings(a.name, b.name) ||
    compareStrings(a.namespace, b.namespace) ||
    compareStrings(a.group, b.group)
  );
}

/** Sorts in place, then moves Namespace and CRD tasks ahead of their first dependent (§3.3). */
export function sortSyncTasks(tasks: SyncTask[]): void {
  runAtOnce(sortSyncTaskSteps(tasks));
}

/** sortSyncTasks as SlicedWork (yields every ITEMS_PER_YIELD tasks placed). */
export function* sortSyncTaskSteps(tasks: SyncTask[]): SlicedWork<void> {
  let i = 0;
  // bucketSorted has read every task before it hands out the first, so writing into `tasks` is safe.
  for (const task of bucketSorted(tasks)) {
    tasks[i++] = task;
    if (i % ITEMS_PER_YIELD === 0) yield;
  }
  bubbleDependencies(tasks);
}

type Buckets<T> = Map<number, T>;

/**
 * The order of compareSyncTasks, computed as a bucket sort: tasks are grouped by phase, wave and kind order (few
 * distinct values), the groups are visited in ascending order and only each group is sorted by name, namespace
 * and group. Far fewer comparisons than one sort over all tasks.
 */
function* bucketSorted(tasks: readonly SyncTask[]): Generator<SyncTask> {
  const byPhase: Buckets<Buckets<Buckets<SyncTask[]>>> = new Map();
  for (const task of tasks) {
    const byWave = getOrCreate(byPhase, SYNC_PHASE_ORDINAL[task.phase], () => new Map());
    const byKind = getOrCreate(byWave, task.wave, () => new Map());
    getOrCreate(byKind, kindOrderOf(task.kind), (): SyncTask[] => []).push(task);
  }
  for (const byWave of ascending(byPhase)) {
    for (const byKind of ascending(byWave)) {
      for (const group of ascending(byKind)) yield* group.length > 1 ? group.sort(compareWithinKind) : group;
    }
  }
}

function compareWithinKind(a: SyncTask, b: SyncTask): number {
  return (
    compareStrings(a.name, b.name) ||
    compareStrings(a.namespace, b.namespace) ||
    compareStrings(a.group, b.group)
  );
}

function getOrCreate<T>(map: Buckets<T>, key: number, create: () => T): T {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

function ascending<T>(map: Buckets<T>): T[] {
  return [...map.keys()].sort((a, b) => a - b).map((key) => map.get(key)!);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
