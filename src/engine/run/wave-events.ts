/**
 * The step-level events: OperationStarted (with every planned step), WaveStarted and WaveCompleted (with the
 * health of the wave's applied resources). Which waves were announced is per-process memory; after a restart a
 * wave that already has results counts as started, so nothing is announced twice by one process.
 */
import type { HealthStatus, OperationState, SyncPhase, SyncWave, TaskRef } from '../../domain/index.js';
import { healthOf } from '../health/health-of.js';
import { lateReferencesWork } from '../plan/reference-lint.js';
import { nowIso, type SyncContext, taskRefOf, waveKey, waveRefOf } from '../sync-context.js';
import { isPruneTask, type SyncTask } from '../sync-task.js';
import { isFailedTask, resultOf, taskStateOf } from '../task-results.js';
import { TimeSlice } from '../time-slice.js';

function stepsOf(tasks: readonly SyncTask[]): { phase: SyncPhase; wave: SyncWave }[] {
  const steps: { phase: SyncPhase; wave: SyncWave }[] = [];
  for (const task of tasks) {
    if (task.phase === 'SyncFail') continue;
    const last = steps.at(-1);
    if (!last || last.phase !== task.phase || last.wave !== task.wave)
      steps.push({ phase: task.phase, wave: task.wave });
  }
  return steps;
}

async function planWarnings(
  ctx: SyncContext,
  tasks: readonly SyncTask[],
  slice: TimeSlice,
): Promise<{ warnings?: string[]; fallbacks?: string[] }> {
  const late = await slice.run(lateReferencesWork(tasks));
  const warnings = [...ctx.memory.sharedResources, ...late.map((l) => l.message)];
  const fallbacks = [...ctx.warnings, ...ctx.memory.planWarnings].map(
    (w) => `${w.message} (${w.line > 0 ? `${w.file}:${w.line}` : w.file})`,
  );
  return {
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(fallbacks.length > 0 ? { fallbacks: [...new Set(fallbacks)] } : {}),
  };
}

/**
 * Remembers the plan and emits OperationStarted (once per process), with the shared-resource and reference lint
 * warnings and the fallback warnings (the planner's and RunOperationInput.warnings).
 */
export async function announceOperation(
  ctx: SyncContext,
  state: OperationState,
  tasks: SyncTask[],
): Promise<void> {
  if (ctx.memory.steps.length > 0) return;
  ctx.memory.steps = stepsOf(tasks);
  // One pass over the tasks in time slices (20,000 tasks: tens of ms), grouped by wave.
  const slice = new TimeSlice();
  const byWave = new Map(ctx.memory.steps.map((s) => [waveKey(s.phase, s.wave), [] as TaskRef[]]));
  for (const task of tasks) {
    if (slice.due()) await slice.pause();
    const key = waveKey(task.phase, task.wave);
    if (resultOf(state, task)) ctx.memory.startedWaves.add(key);
    byWave.get(key)?.push(taskRefOf(task));
  }
  const warnings = await planWarnings(ctx, tasks, slice);
  await ctx.emit({
    type: 'OperationStarted',
    at: nowIso(ctx),
    application: ctx.application,
    revision: ctx.revision,
    operation: ctx.operation,
    waves: ctx.memory.steps.map((s) => ({
      ...waveRefOf(ctx, s.phase, s.wave),
      tasks: byWave.get(waveKey(s.phase, s.wave)) ?? [],
    })),
    resumed: state.syncResult.resources.length > 0,
    ...warnings,
  });
}

export async function announceWaveStarted(ctx: SyncContext, current: SyncTask[]): Promise<void> {
  const first = current[0];
  if (!first) return;
  const key = waveKey(first.phase, first.wave);
  if (ctx.memory.startedWaves.has(key)) return;
  ctx.memory.startedWaves.add(key);
  const wave = waveRefOf(ctx, first.phase, first.wave);
  await ctx.emit({ type: 'WaveStarted', at: nowIso(ctx), wave, tasks: current.map(taskRefOf) });
}

/**
 * Emits WaveCompleted for started waves whose tasks all completed (or all of them when `final`). `interrupted`
 * (the termination message) marks the waves announced by a termination as failed with it: a wave cut short by
 * Ctrl-C, a cancel or the operation timeout did not complete.
 */
export async function announceCompletedWaves(
  ctx: SyncContext,
  state: OperationState,
  tasks: SyncTask[],
  final: boolean,
  interrupted?: string,
): Promise<void> {
  const open = [...ctx.memory.startedWaves].filter((key) => !ctx.memory.completedWaves.has(key));
  if (open.length === 0) return;
  // One pass over the tasks in time slices (every sync pass comes here; a wave may hold 20,000 tasks).
  const slice = new TimeSlice();
  const byWave = new Map(open.map((key) => [key, [] as SyncTask[]]));
  for (const task of tasks) {
    if (slice.due()) await slice.pause();
    const waveTasks = byWave.get(waveKey(task.phase, task.wave));
    if (waveTasks !== undefined && resultOf(state, task)) waveTasks.push(task);
  }
  for (const [key, waveTasks] of byWave) {
    // No results yet (e.g. a BeforeHookCreation hook whose old object is still being deleted): not completed.
    if (waveTasks.length === 0) continue;
    if (!final && waveTasks.some((t) => taskStateOf(state, t) !== 'completed')) continue;
    ctx.memory.completedWaves.add(key);
    await emitWaveCompleted(ctx, state, waveTasks, interrupted, slice);
  }
}

async function emitWaveCompleted(
  ctx: SyncContext,
  state: OperationState,
  waveTasks: SyncTask[],
  interrupted: string | undefined,
  slice: TimeSlice,
): Promise<void> {
  const first = waveTasks[0];
  if (!first || first.phase === 'SyncFail') return;
  const at = nowIso(ctx);
  let earliest = Date.parse(at);
  const failedTasks: SyncTask[] = [];
  // Health is asked for all at once (scripted health runs in batches off the main thread), then gathered in order.
  const judging: Promise<{ task: TaskRef; health: HealthStatus | undefined }>[] = [];
  for (const t of waveTasks) {
    if (slice.due()) await slice.pause();
    earliest = Math.min(earliest, Date.parse(resultOf(state, t)?.startedAt ?? at));
    if (isFailedTask(state, t)) failedTasks.push(t);
    if (t.isHook || isPruneTask(t) || t.liveObj === undefined) continue;
    const task = taskRefOf(t);
    judging.push(healthOf(ctx, t.liveObj).then((health) => ({ task, health })));
  }
  const health = (await Promise.all(judging)).flatMap(({ task, health: h }) =>
    h ? [{ task, health: h }] : [],
  );
  await ctx.emit({
    type: 'WaveCompleted',
    at,
    wave: waveRefOf(ctx, first.phase, first.wave),
    durationMs: Date.parse(at) - earliest,
    health,
    failed: failedTasks.length > 0 || interrupted !== undefined,
    message: failureMessage(state, failedTasks, waveTasks.length) || (interrupted ?? ''),
  });
}

/** Failures a WaveCompleted message names one by one; beyond, it gives the count and the first ones. */
const NAMED_FAILURES = 3;

/**
 * `ConfigMap/a: <message>; Secret/b: <message>`, or for a big wave
 * `120 of 4000 failed, first: ConfigMap/a: <message>; …` — one reply stays short however many tasks failed.
 */
function failureMessage(state: OperationState, failed: SyncTask[], total: number): string {
  const named = failed
    .slice(0, NAMED_FAILURES)
    .map((t) => `${t.kind}/${t.name}: ${resultOf(state, t)?.message ?? ''}`)
    .join('; ');
  return failed.length <= NAMED_FAILURES ? named : `${failed.length} of ${total} failed, first: ${named}; …`;
}
