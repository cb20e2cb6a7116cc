/**
 * Pass step C (spec §4.4): re-read every running task's live object and update its state from its health.
 * Hooks: Healthy or no health → Succeeded; Progressing/Suspended → keep running (but a Pod that cannot start
 * fails the hook after `hookStartGraceMs`); Degraded/Unknown → Failed. Resources: Healthy or no health →
 * Succeeded; Degraded → Failed; anything else unchanged. A completed hook keeps its log tail and emits
 * HookFinished.
 */
import type { HealthStatus, OperationPhase, OperationState } from '../domain/index.js';
import { cannotStartReason, hookLogTail, hookPodsOf } from './hook-pods.js';
import { healthOf, nowIso, objectRefOf, type SyncContext, taskRefOf, waveRefOf } from './sync-context.js';
import type { SyncTask } from './sync-task.js';
import { recordResult, resultOf, taskStateOf } from './task-results.js';

function hookPhaseFor(health: HealthStatus | undefined): OperationPhase {
  if (health === undefined) return 'Succeeded';
  switch (health.status) {
    case 'Healthy':
    case 'Missing':
      return 'Succeeded';
    case 'Progressing':
    case 'Suspended':
      return 'Running';
    default:
      return 'Failed';
  }
}

function resourcePhaseFor(health: HealthStatus | undefined): OperationPhase {
  if (health === undefined || health.status === 'Healthy') return 'Succeeded';
  return health.status === 'Degraded' ? 'Failed' : 'Running';
}

async function startFailure(
  ctx: SyncContext,
  state: OperationState,
  task: SyncTask,
): Promise<string | undefined> {
  const startedAt = Date.parse(resultOf(state, task)?.startedAt ?? '');
  if (!(ctx.now().getTime() - startedAt >= ctx.options.hookStartGraceMs)) return undefined;
  const pods = await hookPodsOf(ctx, objectRefOf(ctx, task), task.liveObj);
  for (const pod of pods) {
    const reason = cannotStartReason(pod);
    if (reason) return reason;
  }
  return undefined;
}

/** Records a hook's completion with its log tail and emits HookFinished. */
export async function finishHook(
  ctx: SyncContext,
  state: OperationState,
  task: SyncTask,
  hookPhase: OperationPhase,
  message: string,
): Promise<void> {
  const at = nowIso(ctx);
  const pods = await hookPodsOf(ctx, objectRefOf(ctx, task), task.liveObj);
  const logTail = await hookLogTail(ctx, pods);
  const result = recordResult(state, task, { hookPhase, message, finishedAt: at, logTail });
  await ctx.emit({
    type: 'HookFinished',
    at,
    wave: waveRefOf(ctx, task.phase, task.wave),
    task: taskRefOf(task),
    hookType: task.phase,
    hookPhase,
    message,
    durationMs: Date.parse(at) - Date.parse(result.startedAt ?? at),
    logTail,
  });
}

async function refreshHook(ctx: SyncContext, state: OperationState, task: SyncTask): Promise<void> {
  if (task.liveObj?.status === undefined && ['Pod', 'Job'].includes(task.kind)) return; // not observed yet
  const health = healthOf(ctx, task.liveObj!);
  let phase = hookPhaseFor(health);
  let message = health?.message || resultOf(state, task)?.message || '';
  if (phase === 'Running') {
    const reason = await startFailure(ctx, state, task);
    if (reason === undefined) return;
    phase = 'Failed';
    message = reason;
  }
  await finishHook(ctx, state, task, phase, message);
}

function refreshResource(ctx: SyncContext, state: OperationState, task: SyncTask): void {
  const health = healthOf(ctx, task.liveObj!);
  const phase = resourcePhaseFor(health);
  if (phase === 'Running') return;
  const message = health?.message || resultOf(state, task)?.message || '';
  recordResult(state, task, { hookPhase: phase, message, finishedAt: nowIso(ctx) });
}

/** Step C over all running tasks that have a live object. */
export async function refreshRunningTasks(
  ctx: SyncContext,
  state: OperationState,
  tasks: SyncTask[],
): Promise<void> {
  const running = tasks.filter((t) => taskStateOf(state, t) === 'running' && t.liveObj !== undefined);
  await Promise.all(
    running.map((task) => (task.isHook ? refreshHook(ctx, state, task) : refreshResource(ctx, state, task))),
  );
}
