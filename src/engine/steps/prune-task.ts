/**
 * pruneTask — delete one live object that is no longer desired (spec §4.13 pruneObject): without the operation's
 * prune flag → PruneSkipped "ignored (requires pruning)"; `Prune=false` on the live object or the operation →
 * PruneSkipped "ignored (no prune)"; already being deleted → Pruned; else delete with the operation's
 * propagation policy (default Foreground) → Pruned "pruned"; an API error → SyncFailed with its message.
 */
import type { OperationState, ResultCode } from '../../domain/index.js';
import { messageOf, withRetry } from '../retry.js';
import { nowIso, objectRefOf, type SyncContext, taskRefOf, waveRefOf } from '../sync-context.js';
import { hasSyncOption, propagationPolicyOf } from '../sync-options.js';
import type { SyncTask } from '../sync-task.js';
import { recordOutcome } from '../task-results.js';

/** Prunes one task's live object; no recording. */
export async function prune(
  ctx: SyncContext,
  task: SyncTask,
): Promise<{ status: ResultCode; message: string }> {
  if (!ctx.operation.prune) return { status: 'PruneSkipped', message: 'ignored (requires pruning)' };
  if (hasSyncOption(ctx.operation, 'Prune=false', task.liveObj)) {
    return { status: 'PruneSkipped', message: 'ignored (no prune)' };
  }
  if (task.liveObj?.metadata.deletionTimestamp) return { status: 'Pruned', message: 'pruned' };
  const ref = objectRefOf(ctx, task);
  try {
    const propagationPolicy = propagationPolicyOf(ctx.operation);
    await withRetry(() => ctx.cluster.delete(ref, { propagationPolicy }));
    return { status: 'Pruned', message: 'pruned' };
  } catch (error) {
    return { status: 'SyncFailed', message: messageOf(error) };
  }
}

/** Records and reports a prune outcome; returns false when it failed. */
export async function recordPrune(
  ctx: SyncContext,
  state: OperationState,
  task: SyncTask,
  { status, message }: { status: ResultCode; message: string },
): Promise<boolean> {
  const at = nowIso(ctx);
  recordOutcome(state, task, status, message, at);
  await ctx.emit({
    type: 'ResourceApplied',
    at,
    wave: waveRefOf(ctx, task.phase, task.wave),
    task: taskRefOf(task),
    status,
    message,
  });
  return status !== 'SyncFailed';
}
