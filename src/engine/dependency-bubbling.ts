/**
 * Dependency bubbling after the sort. Source: gitops-engine `pkg/sync/sync_tasks.go` (Sort, adjustDeps); spec §3.3.
 *
 * Two passes over the sorted list, first Namespaces then CRDs. A dependency (core `Namespace` N; a
 * `apiextensions.k8s.io` `CustomResourceDefinition` for `spec.group`/`spec.names.kind`) found after the first task
 * that references it (a task in namespace N; a task of that group and kind) moves to just before that task and
 * takes its phase and wave. A dependency already ahead of its first referrer stays. Prune tasks take no part.
 */

import type { KubeObject } from '../domain/index.js';
import { splitApiVersion } from '../domain/index.js';
import type { SyncTask } from './sync-task.js';

type KeyOf = (obj: KubeObject) => string | undefined;

/** Moves Namespace and CRD tasks ahead of their first dependent task, in place. */
export function bubbleDependencies(tasks: SyncTask[]): void {
  adjustDeps(tasks, namespaceDefined, namespaceReferenced);
  adjustDeps(tasks, crdDefined, groupKindReferenced);
}

function adjustDeps(tasks: SyncTask[], depKeyOf: KeyOf, refKeyOf: KeyOf): void {
  const firstReferrer = new Map<string, number>();
  for (let i = 0; i < tasks.length; i++) {
    const task = tasks[i]!;
    if (task.targetObj === undefined) continue;
    const depKey = depKeyOf(task.targetObj);
    if (depKey === undefined) {
      const refKey = refKeyOf(task.targetObj);
      if (refKey !== undefined && !firstReferrer.has(refKey)) firstReferrer.set(refKey, i);
      continue;
    }
    const index = firstReferrer.get(depKey);
    if (index === undefined) continue;
    const referrer = tasks[index]!;
    task.phase = referrer.phase;
    task.wave = referrer.wave;
    tasks.splice(i, 1);
    tasks.splice(index, 0, task);
    for (const [key, at] of firstReferrer) if (at >= index) firstReferrer.set(key, at + 1);
  }
}

function namespaceDefined(obj: KubeObject): string | undefined {
  return obj.kind === 'Namespace' && splitApiVersion(obj.apiVersion).group === ''
    ? obj.metadata.name
    : undefined;
}

function namespaceReferenced(obj: KubeObject): string | undefined {
  return obj.metadata.namespace || undefined;
}

function crdDefined(obj: KubeObject): string | undefined {
  if (obj.kind !== 'CustomResourceDefinition') return undefined;
  if (splitApiVersion(obj.apiVersion).group !== 'apiextensions.k8s.io') return undefined;
  const spec = obj.spec as { group?: unknown; names?: { kind?: unknown } } | undefined;
  const group = spec?.group;
  const kind = spec?.names?.kind;
  // A CRD without spec.group or spec.names.kind is still a dependency, one nothing references (as in Go).
  return typeof group === 'string' && typeof kind === 'string' ? `${group}/${kind}` : '';
}

function groupKindReferenced(obj: KubeObject): string {
  return `${splitApiVersion(obj.apiVersion).group}/${obj.kind}`;
}
