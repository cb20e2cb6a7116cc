/**
 * Terminate (spec §4.10, Argo CD v3.4+): for every running hook — re-read it; gone → Succeeded "Terminated";
 * completed meanwhile → keep its real phase; otherwise keep its log tail, remove the hook finalizer, delete it and
 * record Failed "Terminated". HookFailed hooks are deleted too. Applied resources are not rolled back and SyncFail
 * hooks never start. The operation ends Failed with `message` ("Operation terminated", or the timeout reason).
 */
import { HOOK_FINALIZER, type OperationState } from '../../domain/index.js';
import { healthOf } from '../health/health-of.js';
import { deleteHooksWithPolicy } from '../hooks/hook-cleanup.js';
import { messageOf, withRetry } from '../retry.js';
import { objectRefOf, type SyncContext } from '../sync-context.js';
import { propagationPolicyOf } from '../sync-options.js';
import type { SyncTask } from '../sync-task.js';
import { recordResult, taskStateOf } from '../task-results.js';
import { finishHook } from './refresh-tasks.js';
import { completeOperation } from './sync-fail.js';

async function stopHook(ctx: SyncContext, state: OperationState, task: SyncTask): Promise<boolean> {
  const ref = objectRefOf(ctx, task);
  const live = await ctx.live.fresh(ref);
  task.liveObj = live;
  if (live === undefined) {
    recordResult(state, task, {
      hookPhase: 'Succeeded',
      message: 'Terminated',
      finishedAt: ctx.now().toISOString(),
    });
    return true;
  }
  const health = await healthOf(ctx, live);
  const done = health === undefined || health.status === 'Healthy';
  const failed = health?.status === 'Degraded';
  await finishHook(
    ctx,
    state,
    task,
    done ? 'Succeeded' : 'Failed',
    done || failed ? health?.message || 'Terminated' : 'Terminated',
  );
  try {
    await withRetry(() => ctx.cluster.removeFinalizer(ref, HOOK_FINALIZER, live));
    if (!done)
      await withRetry(() =>
        ctx.cluster.delete(ref, { propagationPolicy: propagationPolicyOf(ctx.operation) }),
      );
    return true;
  } catch (error) {
    ctx.logger.warn({ hook: ref, error: messageOf(error) }, 'cannot stop hook');
    return false;
  }
}

export async function terminateOperation(
  ctx: SyncContext,
  state: OperationState,
  tasks: SyncTask[],
  message: string,
): Promise<void> {
  const running = tasks.filter((t) => t.isHook && taskStateOf(state, t) === 'running');
  const stopped = await Promise.all(running.map((t) => stopHook(ctx, state, t)));
  await deleteHooksWithPolicy(ctx, state, tasks, 'HookFailed');
  const ok = stopped.every(Boolean);
  completeOperation(ctx, state, ok ? 'Failed' : 'Error', ok ? message : 'Operation termination had errors');
}
