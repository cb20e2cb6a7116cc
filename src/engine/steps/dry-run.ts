/**
 * Pass step B (spec §4.3), first pass only: create the destination namespace for real when the plan has the
 * CreateNamespace task (gitops-engine sync_context.go: "Before doing any validation, we have to create the
 * application namespace if it does not exist"), then dry-run every other task **server-side** (`dryRun=All`,
 * stricter than Argo CD's client-side dry run) — those in that namespace included. Skipped: prunes (cannot fail),
 * tasks still marked skipDryRun (their CRD, or a Namespace not created yet, comes with this sync, as Argo does for
 * CRDs; their names are checked client-side instead, so an invalid one still stops the sync before anything is
 * applied), and hooks that exist live with BeforeHookCreation (the dry run would
 * hit the object that is about to be deleted, e.g. an immutable Job template). Nothing is recorded unless it
 * failed — or the whole operation is a dry run. With ApplyOutOfSyncOnly, a dry-run answer equal to the live
 * object marks the task unmodified. A cancel (ctx.signal) stops it between requests: the tasks not dry-run are
 * left without a verdict, and the caller ends the pass.
 */
import type { KubeObject, OperationState } from '../../domain/index.js';
import { nameProblems, nameRuleOf } from '../../domain/index.js';
import { nowIso, type SyncContext, taskRefOf, waveRefOf } from '../sync-context.js';
import { isPruneTask, resultKeyOf, type SyncTask } from '../sync-task.js';
import { recordOutcome } from '../task-results.js';
import { applyTask } from './apply-task.js';
import { mapBounded } from './bounded-pool.js';

/** The CreateNamespace task (spec §3.1 step 5), if the plan has one. */
export function namespaceTaskOf(ctx: SyncContext, tasks: SyncTask[]): SyncTask | undefined {
  return tasks.find(
    (t) =>
      t.kind === 'Namespace' &&
      t.group === '' &&
      t.name === ctx.namespace &&
      t.liveObj === undefined &&
      !t.isHook &&
      t.targetObj !== undefined &&
      ctx.operation.syncOptions.includes('CreateNamespace=true'),
  );
}

function comparable(obj: KubeObject | undefined): string {
  if (obj === undefined) return '';
  const { resourceVersion, managedFields, generation, ...metadata } = obj.metadata;
  return JSON.stringify({ ...obj, metadata, status: undefined });
}

function skipsDryRun(task: SyncTask): boolean {
  if (isPruneTask(task) || task.skipDryRun) return true;
  return task.isHook && task.liveObj !== undefined && task.deletePolicies.includes('BeforeHookCreation');
}

/** Lets the tasks waiting only for `namespace` be dry-run, now that it exists. */
export function namespaceCreated(tasks: SyncTask[], namespace: string): void {
  for (const task of tasks) {
    if (task.awaitsNamespace !== namespace) continue;
    task.skipDryRun = false;
    delete task.awaitsNamespace;
  }
}

/**
 * What can be checked without the API server for a task whose server dry run is skipped: its name, by the rule of
 * its kind (`<Kind> "<name>" is invalid: metadata.name: Invalid value: …`, the API server's words). CRs use the
 * subdomain rule, as the API server applies to custom resources.
 */
function clientSideProblem(task: SyncTask): string | undefined {
  const problems = nameProblems(task.name, nameRuleOf(task.kind));
  if (problems.length === 0) return undefined;
  const details = problems.map((p) => `metadata.name: Invalid value: ${JSON.stringify(task.name)}: ${p}`);
  return `${task.kind} ${JSON.stringify(task.name)} is invalid: ${details.join(', ')}`;
}

/**
 * The message of a successful dry-run operation: says which objects the server could not validate (their
 * Namespace or CRD is created by this sync, so only their names were checked), rather than a plain success.
 */
export function dryRunSuccessMessage(tasks: SyncTask[]): string {
  const unchecked = tasks.filter((t) => t.skipDryRun && !isPruneTask(t));
  if (unchecked.length === 0) return 'successfully synced (dry run)';
  const shown = unchecked.slice(0, 5).map((t) => `${t.kind}/${t.name}`);
  const more = unchecked.length > shown.length ? ` and ${unchecked.length - shown.length} more` : '';
  return `successfully synced (dry run); not validated by the server, as their Namespace or CRD is created by this sync (names checked only): ${shown.join(', ')}${more}`;
}

/** Creates the destination namespace; returns the failure message, if any. */
export async function createNamespace(
  ctx: SyncContext,
  state: OperationState,
  task: SyncTask,
): Promise<string | undefined> {
  const outcome = await applyTask(ctx, task, { dryRun: false, operationStartedAt: state.startedAt });
  recordOutcome(state, task, outcome.ok ? 'Synced' : 'SyncFailed', outcome.message, nowIso(ctx));
  await ctx.emit({
    type: 'ResourceApplied',
    at: nowIso(ctx),
    wave: waveRefOf(ctx, task.phase, task.wave),
    task: taskRefOf(task),
    status: outcome.ok ? 'Synced' : 'SyncFailed',
    message: outcome.message,
  });
  return outcome.ok ? undefined : `the namespace failed to apply, reason: ${outcome.message}`;
}

/**
 * Dry-runs every task; returns the failed ones' messages. Records results for failures (or for a dry-run op).
 * Each answer is compared with the live object as it arrives and then dropped: only the verdict is kept, so a
 * 10,000-task dry run does not hold 10,000 answers until the last one is in.
 */
export async function dryRunTasks(
  ctx: SyncContext,
  state: OperationState,
  tasks: SyncTask[],
): Promise<string[]> {
  const runs = tasks.filter((t) => !skipsDryRun(t));
  const clientSide = tasks.filter((t) => t.skipDryRun && !isPruneTask(t));
  // Only ApplyOutOfSyncOnly reads the verdict "unmodified": without it, no answer is serialised to compare.
  const compares = ctx.operation.syncOptions.includes('ApplyOutOfSyncOnly=true');
  const verdicts = await mapBounded(
    runs,
    ctx.options.applyConcurrency,
    async (task) => {
      const outcome = await applyTask(ctx, task, { dryRun: true, operationStartedAt: state.startedAt });
      if (!outcome.ok) return { failed: outcome.message };
      const unmodified =
        compares && task.liveObj !== undefined && comparable(outcome.object) === comparable(task.liveObj);
      return { unmodified };
    },
    ctx.signal,
  );
  const failures: string[] = [];
  for (const task of clientSide) {
    const problem = clientSideProblem(task);
    if (problem === undefined) continue;
    failures.push(`${task.kind}/${task.name}: ${problem}`);
    recordOutcome(state, task, 'SyncFailed', problem, nowIso(ctx));
  }
  for (const [i, task] of runs.entries()) {
    const verdict = verdicts[i];
    if (verdict === undefined) continue; // not dry-run: the operation was cancelled
    if (verdict.failed !== undefined) {
      failures.push(`${task.kind}/${task.name}: ${verdict.failed}`);
      recordOutcome(state, task, 'SyncFailed', verdict.failed, nowIso(ctx));
    } else if (verdict.unmodified) {
      ctx.memory.unmodified.add(resultKeyOf(task));
    }
  }
  if (ctx.operation.dryRun && failures.length === 0) recordDryRunResults(ctx, state, tasks);
  return failures;
}

/** A dry-run operation records every task as done (spec §4.7 step 5: Running is recorded as Succeeded). */
function recordDryRunResults(ctx: SyncContext, state: OperationState, tasks: SyncTask[]): void {
  for (const task of tasks) {
    if (isPruneTask(task)) {
      const message = ctx.operation.prune ? 'pruned (dry run)' : 'ignored (requires pruning)';
      recordOutcome(state, task, ctx.operation.prune ? 'Pruned' : 'PruneSkipped', message, nowIso(ctx));
    } else {
      const message = !task.skipDryRun
        ? 'dry run'
        : task.awaitsNamespace !== undefined
          ? `name checked only: the server dry run needs namespace ${task.awaitsNamespace}, which this sync creates`
          : 'name checked only: the server dry run needs its CRD, which this sync creates';
      recordOutcome(state, task, 'Synced', message, nowIso(ctx)).hookPhase = 'Succeeded';
    }
  }
}
