/**
 * Task order. Source: gitops-engine `pkg/sync/sync_tasks.go` (Less, Sort); spec §3.2–§3.3.
 *
 * phase (PreSync, Sync, PostSync, SyncFail) → wave (ascending) → kind order (KIND_ORDER; unknown kinds last) →
 * name (byte-wise). Go's sort leaves ties on all four keys in map order; wavesync breaks them by namespace, then
 * group (an intentional, documented divergence), so the plan is deterministic. Then dependency bubbling.
 */
import { SYNC_PHASE_ORDINAL } from '../domain/index.js';
import { bubbleDependencies } from './dependency-bubbling.js';
import { kindOrderOf } from './kind-order.js';
import type { SyncTask } from './sync-task.js';

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
  tasks.sort(compareSyncTasks);
  bubbleDependencies(tasks);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
