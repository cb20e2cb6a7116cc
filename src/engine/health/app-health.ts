/**
 * assessAppHealth — after the operation, watch the Application's resources (non-hook targets, gitops-engine
 * `CD/controller/health.go` rules: hooks and kinds without health are skipped) until every one is Healthy (or
 * Suspended), one is Degraded, or `healthTimeoutMs` passes. Reports the worst status: "Succeeded" must never hide
 * a crash-looping Deployment. While it waits it says what for (HealthWaiting): each resource not Healthy yet
 * with the reason its Pods give — a ConfigMap or Secret that does not exist, an image that cannot be pulled —
 * and the final health message names the same.
 */
import { type HealthStatus, type KubeObject, type TaskRef, worstHealth } from '../../domain/index.js';
import { nowIso, objectRefOf, type SyncContext, taskRefOf } from '../sync-context.js';
import { isPruneTask, type SyncTask } from '../sync-task.js';
import type { Wakeup } from '../wakeup.js';
import { healthOf } from './health-of.js';
import {
  missingReferenceOf,
  podLabelOf,
  podsOfNamespace,
  podsOfWorkload,
  waitReasonOf,
} from './stuck-pods.js';

export interface AppHealth {
  health: HealthStatus;
  unhealthy: { task: TaskRef; health: HealthStatus }[];
  afterMs: number;
}

interface Check {
  task: SyncTask;
  health: HealthStatus;
  live?: KubeObject;
  /** Why it is not Healthy yet, for a workload whose Pods say (stuck-pods.ts); set by explain. */
  reason?: string;
}

async function snapshot(ctx: SyncContext, tasks: SyncTask[]): Promise<Check[]> {
  const checks = await Promise.all(
    tasks.map(async (task): Promise<Check | undefined> => {
      const live = await ctx.live.get(objectRefOf(ctx, task));
      if (live === undefined)
        return { task, health: { status: 'Missing', message: 'not found in the cluster' } as HealthStatus };
      const health = await healthOf(ctx, live);
      return health ? { task, health, live } : undefined;
    }),
  );
  return checks.filter((c) => c !== undefined);
}

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'Pod']);

/**
 * Sets `reason` on the unhealthy workloads of `checks`: the first missing object one of its Pods needs ("Pod
 * web-x (container web) cannot start: configmap "app-env" not found"), else what its Pods wait for, else its
 * health message. Pods come from the live cache (watched for the sync), one list per namespace otherwise.
 */
async function explain(ctx: SyncContext, checks: Check[]): Promise<void> {
  const podsByNamespace = new Map<string, Promise<KubeObject[]>>();
  await Promise.all(
    checks.map(async (check) => {
      const { live, health } = check;
      if (live === undefined || isSettledHealth(health) || !WORKLOADS.has(live.kind)) return;
      const namespacePods = await podsOfNamespace(ctx, podsByNamespace, live.metadata.namespace ?? '');
      const pods = podsOfWorkload(live, namespacePods);
      for (const pod of pods) {
        const missing = await missingReferenceOf(ctx, pod);
        if (missing === undefined) continue;
        const notFound = `${missing.ref.kind.toLowerCase()} "${missing.ref.name}" not found`;
        check.reason = `${live.kind}/${live.metadata.name}: ${podLabelOf(missing)} cannot start: ${notFound}`;
        return;
      }
      check.reason = waitReasonOf(live, pods, health.message ?? health.status);
    }),
  );
}

function isSettledHealth(health: HealthStatus): boolean {
  return health.status === 'Healthy' || health.status === 'Suspended';
}

function summarise(checks: Check[], startedAt: number): AppHealth {
  const unhealthy = checks.filter((c) => c.health.status !== 'Healthy');
  const worst = worstHealth(unhealthy.map((c) => c.health));
  const first = unhealthy.find((c) => c.health.status === worst.status);
  const message = first
    ? (first.reason ?? `${first.task.kind}/${first.task.name}: ${first.health.message || worst.status}`)
    : undefined;
  return {
    health: message ? { status: worst.status, message } : { status: 'Healthy' },
    unhealthy: unhealthy.map((c) => ({ task: taskRefOf(c.task), health: c.health })),
    afterMs: Date.now() - startedAt,
  };
}

/** Degraded anywhere, or nothing left that can still change (a Missing resource this sync never applied cannot). */
function settled(checks: Check[], applied: ReadonlySet<SyncTask>): boolean {
  if (checks.some((c) => c.health.status === 'Degraded')) return true;
  return checks.every(
    (c) => isSettledHealth(c.health) || (c.health.status === 'Missing' && !applied.has(c.task)),
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
  let announced: string | undefined;
  for (;;) {
    wake.reset();
    const checks = await snapshot(ctx, resources);
    const done = settled(checks, applied) || Date.now() >= deadline || signal?.aborted;
    await explain(ctx, checks);
    if (done) return summarise(checks, startedAt);
    const waiting = checks
      .filter((c) => !isSettledHealth(c.health))
      .map((c) => ({
        task: taskRefOf(c.task),
        reason: c.reason ?? `${c.task.kind}/${c.task.name}: ${c.health.message || c.health.status}`,
      }));
    const signature = JSON.stringify(waiting.map((w) => w.reason));
    if (signature !== announced) {
      announced = signature;
      await ctx.emit({ type: 'HealthWaiting', at: nowIso(ctx), timeoutMs, waiting });
    }
    const woken = await wake.wait(Math.min(ctx.options.pollIntervalMs, deadline - Date.now()), signal);
    if (!woken) ctx.live.invalidate();
  }
}
