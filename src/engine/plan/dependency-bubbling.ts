/**
 * Dependency bubbling after the sort. Source: gitops-engine `pkg/sync/sync_tasks.go` (Sort, adjustDeps); spec §3.3.
 *
 * Two passes over the sorted list, first Namespaces then CRDs. A dependency (core `Namespace` N; a
 * `apiextensions.k8s.io` `CustomResourceDefinition` for `spec.group`/`spec.names.kind`) found after the first task
 * that references it (a task in namespace N; a task of that group and kind) moves to just before that task and
 * takes its phase and wave. A dependency already ahead of its first referrer stays. Prune tasks take no part.
 */
import type { SyncTask } from '../sync-task.js';

/** A key read from a task with a target object (its group, kind and namespace are the target's). */
type KeyOf = (task: SyncTask) => string | undefined;

/** Moves Namespace and CRD tasks ahead of their first dependent task, in place. */
export function bubbleDependencies(tasks: SyncTask[]): void {
  adjustDeps(tasks, namespaceDefined, namespaceReferenced);
  const crdKinds = kindsDefinedByCrds(tasks);
  if (crdKinds.size > 0) adjustDeps(tasks, crdDefined, groupKindReferencedAmong(crdKinds));
}

function adjustDeps(tasks: SyncTask[], depKeyOf: KeyOf, refKeyOf: KeyOf): void {
  const depKeys = new Set<string>();
  for (const task of tasks) {
    const depKey = task.targetObj === undefined ? undefined : depKeyOf(task);
    if (depKey !== undefined) depKeys.add(depKey);
  }
  if (depKeys.size === 0) return;
  const firstReferrer = new Map<string, number>();
  for (let i = 0; i < tasks.length; i++) {
    const task = tasks[i]!;
    if (task.targetObj === undefined) continue;
    const depKey = depKeyOf(task);
    if (depKey === undefined) {
      // Only keys some dependency defines can matter; others are not recorded (same outcome, less work).
      const refKey = refKeyOf(task);
      if (refKey !== undefined && depKeys.has(refKey) && !firstReferrer.has(refKey))
        firstReferrer.set(refKey, i);
      continue;
    }
    const index = firstReferrer.get(depKey);
    if (index === undefined) continue;
    moveBefore(tasks, i, index);
    for (const [key, at] of firstReferrer) if (at >= index) firstReferrer.set(key, at + 1);
  }
}

/** Moves tasks[from] to position `to` (< from), giving it the phase and wave of the task it now precedes. */
function moveBefore(tasks: SyncTask[], from: number, to: number): void {
  const task = tasks[from]!;
  const referrer = tasks[to]!;
  task.phase = referrer.phase;
  task.wave = referrer.wave;
  tasks.copyWithin(to + 1, to, from);
  tasks[to] = task;
}

function namespaceDefined(task: SyncTask): string | undefined {
  return task.kind === 'Namespace' && task.group === '' ? task.name : undefined;
}

function namespaceReferenced(task: SyncTask): string | undefined {
  return task.namespace || undefined;
}

function crdDefined(task: SyncTask): string | undefined {
  if (task.kind !== 'CustomResourceDefinition' || task.group !== 'apiextensions.k8s.io') return undefined;
  // A CRD without spec.group or spec.names.kind is still a dependency, one nothing references (as in Go).
  return crdDefinedKindOf(task) ?? '';
}

function groupKindReferencedAmong(kinds: ReadonlySet<string>): KeyOf {
  // Builds the group/kind key only for kinds some CRD in the list defines (same outcome, far fewer strings).
  return (task) => (kinds.has(task.kind) ? `${task.group}/${task.kind}` : undefined);
}

function kindsDefinedByCrds(tasks: readonly SyncTask[]): Set<string> {
  const kinds = new Set<string>();
  for (const task of tasks) {
    const key = crdDefined(task);
    if (key) kinds.add(key.slice(key.indexOf('/') + 1));
  }
  return kinds;
}

/** `<spec.group>/<spec.names.kind>` of a CRD task's target, or undefined when either is missing. */
export function crdDefinedKindOf(task: SyncTask): string | undefined {
  const spec = task.targetObj?.spec as { group?: unknown; names?: { kind?: unknown } } | undefined;
  const group = spec?.group;
  const kind = spec?.names?.kind;
  return typeof group === 'string' && typeof kind === 'string' ? `${group}/${kind}` : undefined;
}
