/**
 * Which tasks skip the dry run. Source: gitops-engine `pkg/sync/sync_context.go` getSyncTasks (validation step);
 * spec §3.1 step 7.
 *
 * A task is marked when the sync itself creates what its dry run needs: the CRD defining its group and kind is a
 * target (hooks included) that does not exist yet, or — because wavesync dry-runs on the server, where a missing
 * namespace fails — its namespace is a Namespace target that does not exist yet (`awaitsNamespace`: the dry run
 * runs after all once the sync has created the application namespace, as gitops-engine creates it before any
 * validation). The per-object and app option
 * `SkipDryRunOnMissingResource=true` needs API discovery and is left to the engine.
 */

import type { SyncTask } from '../sync-task.js';
import { crdDefinedKindOf } from './dependency-bubbling.js';

/** Sets `skipDryRun` on the tasks whose CRD or Namespace is created by this sync. */
export function markSkipDryRun(tasks: SyncTask[]): void {
  const newKinds = new Set<string>();
  const newNamespaces = new Set<string>();
  for (const task of tasks) {
    if (task.targetObj === undefined || task.liveObj !== undefined) continue;
    const crdKey = isCrd(task) ? crdDefinedKindOf(task) : undefined;
    if (crdKey !== undefined) newKinds.add(crdKey);
    if (task.kind === 'Namespace' && task.group === '') newNamespaces.add(task.name);
  }
  if (newKinds.size === 0 && newNamespaces.size === 0) return;
  for (const task of tasks) {
    if (task.targetObj === undefined) continue;
    const isNamespace = task.kind === 'Namespace' && task.group === '';
    const crdInSync = newKinds.size > 0 && newKinds.has(`${task.group}/${task.kind}`);
    const namespaceInSync = !isNamespace && newNamespaces.has(task.namespace);
    task.skipDryRun = crdInSync || namespaceInSync;
    if (namespaceInSync && !crdInSync) task.awaitsNamespace = task.namespace;
  }
}

function isCrd(task: SyncTask): boolean {
  return task.kind === 'CustomResourceDefinition' && task.group === 'apiextensions.k8s.io';
}
