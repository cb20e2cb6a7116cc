/**
 * Hook cleanup (spec §4.5 steps 1–2, §5.2, §5.3): remove the hook finalizer from completed hooks, and delete
 * hooks by delete policy — HookSucceeded when the operation succeeds, HookFailed when it fails (keyed on the
 * operation's outcome, as gitops-engine does). A hook's log tail was kept when it finished, before any deletion.
 */
import { HOOK_FINALIZER, type HookDeletePolicy, type OperationState } from '../../domain/index.js';
import { messageOf, withRetry } from '../retry.js';
import { objectRefOf, type SyncContext } from '../sync-context.js';
import { propagationPolicyOf } from '../sync-options.js';
import type { SyncTask } from '../sync-task.js';
import { recordResult, taskStateOf } from '../task-results.js';

/** Removes the hook finalizer from every completed hook; a failure turns the hook into Error. */
export async function releaseCompletedHooks(
  ctx: SyncContext,
  state: OperationState,
  tasks: SyncTask[],
): Promise<void> {
  const hooks = tasks.filter(
    (t) =>
      t.isHook &&
      taskStateOf(state, t) === 'completed' &&
      (t.liveObj?.metadata.finalizers ?? []).includes(HOOK_FINALIZER),
  );
  await Promise.all(hooks.map((task) => releaseHook(ctx, state, task)));
}

/** Removes the hook finalizer of one hook; records Error on failure. */
export async function releaseHook(ctx: SyncContext, state: OperationState, task: SyncTask): Promise<boolean> {
  try {
    await withRetry(() => ctx.cluster.removeFinalizer(objectRefOf(ctx, task), HOOK_FINALIZER, task.liveObj));
    return true;
  } catch (error) {
    recordResult(state, task, {
      hookPhase: 'Error',
      message: `cannot remove hook finalizer: ${messageOf(error)}`,
    });
    return false;
  }
}

/** Deletes every non-running hook with a live object and `policy` (HookSucceeded or HookFailed). */
export async function deleteHooksWithPolicy(
  ctx: SyncContext,
  state: OperationState,
  tasks: SyncTask[],
  policy: HookDeletePolicy,
): Promise<void> {
  const hooks = tasks.filter(
    (t) =>
      t.isHook &&
      t.liveObj !== undefined &&
      taskStateOf(state, t) !== 'running' &&
      t.deletePolicies.includes(policy),
  );
  const propagationPolicy = propagationPolicyOf(ctx.operation);
  await Promise.all(
    hooks.map(async (task) => {
      const ref = objectRefOf(ctx, task);
      try {
        await withRetry(() => ctx.cluster.removeFinalizer(ref, HOOK_FINALIZER, task.liveObj));
        await withRetry(() => ctx.cluster.delete(ref, { propagationPolicy }));
      } catch (error) {
        ctx.logger.warn({ hook: ref, error: messageOf(error) }, 'cannot delete hook');
      }
    }),
  );
}
