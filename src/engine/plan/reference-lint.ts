/**
 * Reference lint (wavesync only; Argo CD has none): a Pod-bearing task whose pod spec reads a ConfigMap, Secret,
 * ServiceAccount or PersistentVolumeClaim that this same sync creates only in a later step (phase, wave). Its
 * Pods cannot start until then — and the sync waits on them first, so it can never get there: Argo CD hangs, a
 * real cluster shows CreateContainerConfigError or FailedMount. Shown as a plan warning (`wavesync plan`, the
 * approval message, `/sync --dry-run`) and used at run time to fail such a Pod within seconds.
 * `optional: true` references are exempt; an object that is already live or created in an earlier (or the same)
 * step is fine (within a step, ConfigMaps, Secrets, ServiceAccounts and PVCs are applied before workloads).
 */
import { SYNC_PHASE_ORDINAL } from '../../domain/index.js';
import { type PodReference, podReferencesOf } from '../health/pod-references.js';
import type { PlanWarning } from '../plan-warning.js';
import { isPruneTask, type SyncTask } from '../sync-task.js';
import { ITEMS_PER_YIELD, runAtOnce, type SlicedWork } from '../time-slice.js';

/** A task whose Pods read an object this sync creates only in a later step. */
export interface LateReference {
  task: SyncTask;
  ref: PodReference;
  /** The task that creates the referenced object (its earliest step). */
  creator: SyncTask;
  /** e.g. `PreSync Job/schema-migrate reads ConfigMap/storefront-db-env, which this sync creates later (Sync wave 0): …` */
  message: string;
}

const REFERENCED_KINDS = new Set(['ConfigMap', 'Secret', 'ServiceAccount', 'PersistentVolumeClaim']);

function keyOf(kind: string, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

/** Negative when `a`'s step (phase, wave) runs before `b`'s. */
export function compareSteps(a: SyncTask, b: SyncTask): number {
  return SYNC_PHASE_ORDINAL[a.phase] - SYNC_PHASE_ORDINAL[b.phase] || a.wave - b.wave;
}

/**
 * The earliest creating task of every ConfigMap/Secret/ServiceAccount/PVC target, by `Kind/namespace/name`, as
 * SlicedWork (20,000 tasks: tens of ms in one piece, on every pass).
 */
export function* creatorsWork(tasks: readonly SyncTask[]): SlicedWork<Map<string, SyncTask>> {
  const creators = new Map<string, SyncTask>();
  let count = 0;
  for (const task of tasks) {
    if (++count % ITEMS_PER_YIELD === 0) yield;
    if (task.group !== '' || !REFERENCED_KINDS.has(task.kind) || isPruneTask(task)) continue;
    const key = keyOf(task.kind, task.namespace, task.name);
    const known = creators.get(key);
    if (known === undefined || compareSteps(task, known) < 0) creators.set(key, task);
  }
  return creators;
}

/** How to fix the order: move the referenced object into (or before) the reading task's step. */
export function reorderAdvice(task: SyncTask): string {
  switch (task.phase) {
    case 'PreSync':
      return 'make it a PreSync hook in an earlier wave';
    case 'Sync':
      return task.isHook
        ? `give it sync-wave ${task.wave} or lower (or make it a PreSync hook)`
        : `give it sync-wave ${task.wave} or lower`;
    default:
      return `make it a ${task.phase} hook in an earlier wave, or a PreSync hook`;
  }
}

function verbOf(ref: PodReference): string {
  return (ref.kind === 'ConfigMap' || ref.kind === 'Secret') && ref.via !== 'imagePullSecrets'
    ? 'reads'
    : 'uses';
}

/** The late reference's message, in the words of the issue that asked for it. */
function lateReferenceMessage(task: SyncTask, ref: PodReference, creator: SyncTask): string {
  return (
    `${task.phase} ${task.kind}/${task.name} ${verbOf(ref)} ${ref.kind}/${ref.name}, which this sync creates ` +
    `later (${creator.phase} wave ${creator.wave}): ${reorderAdvice(task)}`
  );
}

/**
 * The late (non-optional) references of `tasks` (sorted or not), one per task and referenced object. A creator
 * whose object is already live does not count: the Pod reads the live one.
 */
export function lateReferencesOf(
  tasks: readonly SyncTask[],
  creators?: Map<string, SyncTask>,
): LateReference[] {
  return runAtOnce(lateReferencesWork(tasks, creators));
}

/** `lateReferencesOf` as SlicedWork (it reads every task's pod spec: ~0.1 s in one piece at 20,000 tasks). */
export function* lateReferencesWork(
  tasks: readonly SyncTask[],
  given?: Map<string, SyncTask>,
): SlicedWork<LateReference[]> {
  const creators = given ?? (yield* creatorsWork(tasks));
  const late: LateReference[] = [];
  if (creators.size === 0) return late;
  let count = 0;
  for (const task of tasks) {
    if (++count % ITEMS_PER_YIELD === 0) yield;
    if (task.targetObj === undefined) continue;
    const seen = new Set<string>();
    for (const ref of podReferencesOf(task.targetObj)) {
      if (ref.optional) continue;
      const key = keyOf(ref.kind, task.namespace, ref.name);
      const creator = creators.get(key);
      if (creator === undefined || creator.liveObj !== undefined || compareSteps(creator, task) <= 0)
        continue;
      if (seen.has(key)) continue;
      seen.add(key);
      late.push({ task, ref, creator, message: lateReferenceMessage(task, ref, creator) });
    }
  }
  return late;
}

/** The late references as plan warnings at the reading object's file and line. */
export function lateReferenceWarnings(tasks: readonly SyncTask[]): PlanWarning[] {
  return lateReferencesOf(tasks).map(({ task, message }) => ({
    file: task.source?.file ?? '',
    line: task.source?.line ?? 0,
    message,
  }));
}
