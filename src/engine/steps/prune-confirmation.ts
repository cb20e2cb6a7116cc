/**
 * Prune confirmation (spec §4.7 step 2, Argo CD v2.x+ `Prune=confirm`): a wave whose prune tasks include a live
 * object resolving `Prune=confirm` — its own `argocd.argoproj.io/sync-options` annotation, else the Application's
 * `Prune=` sync option (v3.4+; the resource value wins) — prunes nothing and waits until pruning is confirmed at or
 * after the operation's start (Argo CD: the Application annotation `argocd.argoproj.io/deletion-approved`,
 * `CD/pkg/apis/application/v1alpha1/types.go`). The check runs even without the prune flag, as in Argo CD.
 */
import type { OperationState } from '../../domain/index.js';
import type { SyncContext } from '../sync-context.js';
import { syncOptionValueOf } from '../sync-options.js';
import { isPruneTask, type SyncTask } from '../sync-task.js';
import { taskStateOf } from '../task-results.js';

/**
 * The pending prune tasks of `wave` that wait for a confirmation; empty when none needs one or pruning was
 * confirmed at or after `state.startedAt`. Asks `ctx.pruneConfirmation()` only when some task needs it.
 */
export async function unconfirmedPrunes(
  ctx: SyncContext,
  state: OperationState,
  wave: readonly SyncTask[],
): Promise<SyncTask[]> {
  if (ctx.operation.dryRun) return [];
  const needing = wave.filter(
    (t) =>
      isPruneTask(t) &&
      taskStateOf(state, t) === 'pending' &&
      syncOptionValueOf(t.liveObj, 'Prune', ctx.operation.syncOptions) === 'confirm',
  );
  if (needing.length === 0) return [];
  const confirmedAt = await ctx.pruneConfirmation();
  const confirmed = confirmedAt !== undefined && Date.parse(confirmedAt) >= Date.parse(state.startedAt);
  return confirmed ? [] : needing;
}
