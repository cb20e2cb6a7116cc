/**
 * assessAppHealth — after the operation, watch the Application's resources (non-hook targets, gitops-engine
 * `CD/controller/health.go` rules: hooks and kinds without health are skipped) until every one is Healthy (or
 * Suspended), one is Degraded, or `healthTimeoutMs` passes. Reports the worst status: "Succeeded" must never hide
 * a crash-looping Deployment.
 */
import { type HealthStatus, type TaskRef, worstHealth } from '../domain/index.js';
import { healthOf, objectRefOf, type SyncContext, taskRefOf } from './sync-context.js';
import { isPruneTask, type SyncTask } from './sync-task.js';
import type { Wakeup } from './wakeup.js';

export interface AppHealth {
  health: HealthStatus;
  unhealthy: { task: TaskRef; health: HealthStatus }[];
  afterMs: number;
}

async function snapshot(
  ctx: SyncContext,
  tasks: SyncTask[],
): Promise<{ task: SyncTask; health: HealthStatus }[]> {
  const checks = await Promise.all(
    tasks.map(async (task) => {
      const live = await ctx.live.get(objectRefOf(ctx, task));
      if (live === undefined)
        return { task, health: { status: 'Missing', message: 'not found in the cluster' } as HealthStatus };
      const health = healthOf(ctx, live);
      return health ? { task, health } : undefined;
    }),
  );
  return checks.filter((c) => c !== undefined);
}

function summarise(checks: { task: SyncTask; health: HealthStatus }[], startedAt: number): AppHealth {
  const unhealthy = checks.filter((c) => c.health.status !== 'Healthy');
  const worst = worstHealth(unhealthy.map((c) => c.health));
  const first = unhealthy.find((c) => c.health.status === worst.status);
  const message = first
    ? `${first.task.kind}/${first.task.name}: ${first.health.message || worst.status}`
    : undefined;
  return {
    health: message ? { status: worst.status, message } : { status: 'Healthy' },
    unhealthy: unhealthy.map((c) => ({ task: taskRefOf(c.task), health: c.health })),
    afterMs: Date.now() - startedAt,
  };
}

/** Degraded anywhere, or nothing left that can still change (a Missing resource this sync never applied cannot). */
function settled(
  checks: { task: SyncTask; health: HealthStatus }[],
  applied: ReadonlySet<SyncTask>,
): boolean {
  if (checks.some((c) => c.health.status === 'Degraded')) return true;
  return checks.every(
    (c) =>
      c.health.status === 'Healthy' ||
      c.health.status === 'Suspended' ||
      (c.health.status === 'Missing' && !applied.has(c.task)),
  );
}

export async function assessAppHealth(
  ctx: SyncContext,
  tasks: SyncTask[],
  applied: ReadonlySet<SyncTask>,
  wake: Wakeup,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<AppHealth> {
  const resources = tasks.filter((t) => !t.isHook && !isPruneTask(t) && t.phase !== 'SyncFail');
  const startedAt = Date.now();
  const deadline = startedAt + timeoutMs;
  for (;;) {
    wake.reset();
    const checks = await snapshot(ctx, resources);
    if (settled(checks, applied) || Date.now() >= deadline || signal?.aborted)
      return summarise(checks, startedAt);
    const woken = await wake.wait(Math.min(ctx.options.pollIntervalMs, deadline - Date.now()), signal);
    if (!woken) ctx.live.invalidate();
  }
}
