/**
 * PlanSummary — what an approver needs to see: resources to create, update and prune, the hooks per phase, and
 * whether the live state was known. Built from the planner's `buildSyncTasks` result (Argo CD order kept).
 */
import type { SyncPhase } from '../../domain/index.js';
import {
  ITEMS_PER_YIELD,
  isPruneTask,
  lateReferencesWork,
  runAtOnce,
  type SlicedWork,
  type SyncTask,
} from '../../engine/index.js';

export interface PlanSummary {
  /** False when no cluster was consulted: `apply` then lists every resource, create/update unknown. */
  liveKnown: boolean;
  /** `Kind/name`, for resources with no live object (liveKnown only). */
  create: string[];
  /** `Kind/name`, for resources with a live object (liveKnown only). */
  update: string[];
  /** `Kind/name` of every resource to apply when the live state is unknown. */
  apply: string[];
  /** Live resources no longer in the manifests that this sync deletes (`--prune`). */
  prune: string[];
  /** Live resources no longer in the manifests that stay because prune is off. */
  pruneSkipped: string[];
  /** The operation prunes (`--prune`); without the live state the prunes themselves are unknown. */
  pruneRequested?: boolean;
  /** `Kind/name` of hooks, per phase, in execution order. */
  hooks: Partial<Record<SyncPhase, string[]>>;
  /**
   * What the approver should know before approving (absent = none): Pods that read an object this sync creates
   * only later (the engine's reference lint, `lateReferencesOf`), e.g. `PreSync Job/migrate reads ConfigMap/env, …`.
   */
  warnings?: string[];
}

const nameOf = (task: SyncTask) => `${task.kind}/${task.name}`;

/** Summarise `tasks`; `prune` says whether the operation prunes. Warns about late references (reference lint). */
export function summarizePlan(tasks: readonly SyncTask[], liveKnown: boolean, prune: boolean): PlanSummary {
  return runAtOnce(planSummaryWork(tasks, liveKnown, prune));
}

/**
 * summarizePlan as SlicedWork (for TimeSlice.run on the bot's thread): at 50,000 tasks the loop and the reference
 * lint were ~80 ms of CPU in one piece.
 */
export function* planSummaryWork(
  tasks: readonly SyncTask[],
  liveKnown: boolean,
  prune: boolean,
): SlicedWork<PlanSummary> {
  const summary: PlanSummary = {
    liveKnown,
    create: [],
    update: [],
    apply: [],
    prune: [],
    pruneSkipped: [],
    hooks: {},
    pruneRequested: prune,
  };
  let count = 0;
  for (const task of tasks) {
    if (++count % ITEMS_PER_YIELD === 0) yield;
    if (task.isHook) {
      const list = summary.hooks[task.phase] ?? [];
      list.push(nameOf(task));
      summary.hooks[task.phase] = list;
    } else if (isPruneTask(task)) {
      (prune ? summary.prune : summary.pruneSkipped).push(nameOf(task));
    } else if (!liveKnown) {
      summary.apply.push(nameOf(task));
    } else {
      (task.liveObj ? summary.update : summary.create).push(nameOf(task));
    }
  }
  const warnings = (yield* lateReferencesWork(tasks)).map((late) => late.message);
  if (warnings.length > 0) summary.warnings = warnings;
  return summary;
}
