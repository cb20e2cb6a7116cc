/**
 * Pass step C (spec §4.4): re-read every running task's live object and update its state from its health.
 * Hooks: Healthy or no health → Succeeded; Progressing/Suspended → keep running (but a Pod that cannot start
 * fails the hook after `hookStartGraceMs`); Degraded/Unknown → Failed. Resources: Healthy or no health →
 * Succeeded; Degraded → Failed; anything else unchanged. A completed hook keeps its log tail and emits
 * HookFinished.
 *
 * Missing objects (wavesync only, stuck-pods.ts): a Pod of a running hook, or of a resource the wave waits on,
 * that cannot start because an object it reads does not exist fails its task at once when this sync creates that
 * object only in a later step (it cannot appear in time), and after `hookStartGraceMs` of the task when the object
 * is not in this sync (an operator may still create it). Every waiting task gets a reason in
 * `ctx.memory.waitReasons` (what the wave waits for).
 */
import type { HealthStatus, KubeObject, OperationPhase, OperationState } from '../../domain/index.js';
import { healthOf } from '../health/health-of.js';
import {
  type MissingReference,
  missingReferenceOf,
  podLabelOf,
  podsOfNamespace,
  podsOfWorkload,
  waitReasonOf,
} from '../health/stuck-pods.js';
import { cannotStartReason, hookLogTail, hookPodsOf } from '../hooks/hook-pods.js';
import { compareSteps, creatorsWork, lateReferencesOf, reorderAdvice } from '../plan/reference-lint.js';
import { nowIso, objectRefOf, type SyncContext, taskRefOf, waveRefOf } from '../sync-context.js';
import { resultKeyOf, type SyncTask } from '../sync-task.js';
import { recordResult, resultOf, taskStateOf } from '../task-results.js';
import { TimeSlice } from '../time-slice.js';
import { isMultiStep } from './waiting-rules.js';

/** A workload with a late reference and no Pod at all after this long fails (e.g. its ServiceAccount is missing). */
const NO_POD_LIMIT_MS = 10_000;

/** What one pass knows about every running task: the plan's creators and the Pods per namespace (read once). */
interface RefreshScope {
  tasks: readonly SyncTask[];
  creators: Map<string, SyncTask>;
  pods: Map<string, Promise<KubeObject[]>>;
}

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

function elapsedMs(ctx: SyncContext, state: OperationState, task: SyncTask): number {
  return ctx.now().getTime() - Date.parse(resultOf(state, task)?.startedAt ?? '');
}

async function startFailure(
  ctx: SyncContext,
  state: OperationState,
  task: SyncTask,
): Promise<string | undefined> {
  if (!(elapsedMs(ctx, state, task) >= ctx.options.hookStartGraceMs)) return undefined;
  const pods = await hookPodsOf(ctx, objectRefOf(ctx, task), task.liveObj);
  for (const pod of pods) {
    const reason = cannotStartReason(pod);
    if (reason) return reason;
  }
  return undefined;
}

/** The Pods of `namespace`, from the watch-fed cache, else listed once per pass. */
function podsIn(ctx: SyncContext, scope: RefreshScope, namespace: string): Promise<KubeObject[]> {
  return podsOfNamespace(ctx, scope.pods, namespace);
}

/** What the kubelet says about the missing object (its exact words when it has them). */
function causeOf(pod: KubeObject, missing: MissingReference): string {
  const statuses = [
    ...((pod.status as { initContainerStatuses?: unknown[] })?.initContainerStatuses ?? []),
    ...((pod.status as { containerStatuses?: unknown[] })?.containerStatuses ?? []),
  ] as { name?: string; state?: { waiting?: { reason?: string; message?: string } } }[];
  const waiting = statuses.find((c) => c.name === missing.container)?.state?.waiting;
  const notFound = `${missing.ref.kind.toLowerCase()} "${missing.ref.name}" not found`;
  if (waiting?.reason === 'CreateContainerConfigError' && waiting.message)
    return `CreateContainerConfigError: ${waiting.message}`;
  if (missing.ref.via.startsWith('volume '))
    return `FailedMount: MountVolume.SetUp failed for ${missing.ref.via} : ${notFound}`;
  return notFound;
}

type Verdict = { fail: string } | { wait: string };

/** Fail now (created later by this sync), fail after the start grace (not in this sync), or wait. */
function judgeMissing(
  ctx: SyncContext,
  state: OperationState,
  scope: RefreshScope,
  task: SyncTask,
  pod: KubeObject,
  missing: MissingReference,
): Verdict {
  const { ref } = missing;
  const object = `${ref.kind}/${ref.name}`;
  const head = `${podLabelOf(missing)} cannot start: ${causeOf(pod, missing)}`;
  const creator = scope.creators.get(`${ref.kind}/${task.namespace}/${ref.name}`);
  if (creator !== undefined && compareSteps(creator, task) > 0) {
    return {
      fail: `${head} — this sync creates ${object} only later (${creator.phase} wave ${creator.wave}): ${reorderAdvice(task)}`,
    };
  }
  const grace = ctx.options.hookStartGraceMs;
  if (elapsedMs(ctx, state, task) >= grace)
    return {
      fail: `${head} — ${object} is not created by this sync and did not appear within ${grace / 1000}s`,
    };
  return {
    wait: `${task.kind}/${task.name}: ${podLabelOf(missing)} waits for ${object} (not in this sync; fails after ${grace / 1000}s)`,
  };
}

/**
 * The missing-object verdict for a running task whose live workload is `live`, or undefined when nothing is
 * missing. Also fails a workload with a late reference that has no Pod at all after NO_POD_LIMIT_MS.
 */
async function missingVerdict(
  ctx: SyncContext,
  state: OperationState,
  scope: RefreshScope,
  task: SyncTask,
  pods: readonly KubeObject[],
): Promise<Verdict | undefined> {
  for (const pod of pods) {
    const missing = await missingReferenceOf(ctx, pod);
    if (!missing) continue;
    const verdict = judgeMissing(ctx, state, scope, task, pod, missing);
    if ('wait' in verdict) return verdict;
    // Before failing, make sure the object is still missing (the cache may have missed its creation).
    const ref = {
      apiVersion: 'v1',
      kind: missing.ref.kind,
      namespace: task.namespace,
      name: missing.ref.name,
    };
    if ((await ctx.live.fresh(ref)) === undefined) return verdict;
  }
  if (pods.length > 0 || elapsedMs(ctx, state, task) < NO_POD_LIMIT_MS) return undefined;
  for (const late of lateReferencesOf([task], scope.creators)) {
    const ref = { apiVersion: 'v1', kind: late.ref.kind, namespace: task.namespace, name: late.ref.name };
    if ((await ctx.live.get(ref)) !== undefined) continue;
    return { fail: `no Pod of ${task.kind}/${task.name} could be created: ${late.message}` };
  }
  return undefined;
}

async function workloadPods(ctx: SyncContext, scope: RefreshScope, task: SyncTask): Promise<KubeObject[]> {
  const live = task.liveObj;
  if (live === undefined) return [];
  if (live.kind === 'Pod') return [live];
  if (!['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job'].includes(live.kind)) return [];
  // The namespace's Pods are read once per pass for all tasks (a scan per task would cost tasks × objects).
  return podsOfWorkload(live, await podsIn(ctx, scope, task.namespace));
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

async function refreshHook(
  ctx: SyncContext,
  state: OperationState,
  scope: RefreshScope,
  task: SyncTask,
): Promise<void> {
  if (task.liveObj?.status === undefined && ['Pod', 'Job'].includes(task.kind)) return; // not observed yet
  const health = await healthOf(ctx, task.liveObj!);
  let phase = hookPhaseFor(health);
  let message = health?.message || resultOf(state, task)?.message || '';
  if (phase === 'Running') {
    const pods = await workloadPods(ctx, scope, task);
    const verdict = await missingVerdict(ctx, state, scope, task, pods);
    if (verdict && 'wait' in verdict) {
      ctx.memory.waitReasons.set(resultKeyOf(task), verdict.wait);
      return;
    }
    const reason = verdict?.fail ?? (await startFailure(ctx, state, task));
    if (reason === undefined) {
      ctx.memory.waitReasons.set(resultKeyOf(task), waitReasonOf(task.liveObj!, pods, message));
      return;
    }
    phase = 'Failed';
    message = reason;
  }
  await finishHook(ctx, state, task, phase, message);
}

async function refreshResource(
  ctx: SyncContext,
  state: OperationState,
  scope: RefreshScope,
  task: SyncTask,
  blocking: boolean,
): Promise<void> {
  const health = await healthOf(ctx, task.liveObj!);
  let phase = resourcePhaseFor(health);
  let message = health?.message || resultOf(state, task)?.message || '';
  if (phase === 'Running') {
    if (!blocking) return;
    const pods = await workloadPods(ctx, scope, task);
    const verdict = await missingVerdict(ctx, state, scope, task, pods);
    if (verdict === undefined || 'wait' in verdict) {
      const reason = verdict?.wait ?? waitReasonOf(task.liveObj!, pods, message);
      ctx.memory.waitReasons.set(resultKeyOf(task), reason);
      return;
    }
    phase = 'Failed';
    message = verdict.fail;
  }
  recordResult(state, task, { hookPhase: phase, message, finishedAt: nowIso(ctx) });
}

/** Step C over all running tasks that have a live object; refreshes `ctx.memory.waitReasons`. */
export async function refreshRunningTasks(
  ctx: SyncContext,
  state: OperationState,
  tasks: SyncTask[],
): Promise<void> {
  ctx.memory.waitReasons.clear();
  const running = tasks.filter((t) => taskStateOf(state, t) === 'running' && t.liveObj !== undefined);
  if (running.length === 0) return;
  const scope: RefreshScope = {
    tasks,
    creators: await new TimeSlice().run(creatorsWork(tasks)),
    pods: new Map(),
  };
  const multiStep = isMultiStep(tasks);
  await Promise.all(
    running.map((task) =>
      task.isHook
        ? refreshHook(ctx, state, scope, task)
        : refreshResource(ctx, state, scope, task, multiStep),
    ),
  );
}
