/**
 * Running-phase messages, worded as Argo CD v3.5.1 `setRunningPhase` words them (spec §4.11):
 * `waiting for completion of hook batch/Job/migrate and 1 more resources`,
 * `waiting for healthy state of apps/Deployment/web`, `waiting for deletion of hook /ConfigMap/cfg`.
 */
import type { SyncTask } from '../sync-task.js';

function itemOf(task: SyncTask): string {
  return `${task.group}/${task.kind}/${task.name}`;
}

function moreOf(tasks: readonly SyncTask[]): string {
  if (tasks.length <= 1) return '';
  const noun = tasks.some((t) => !t.isHook) ? 'resources' : 'hooks';
  return ` and ${tasks.length - 1} more ${noun}`;
}

/** Message while waiting for running tasks to complete / become healthy. */
export function waitingForMessage(tasks: readonly SyncTask[]): string {
  const hook = tasks.find((t) => t.isHook);
  const first = hook ?? tasks[0];
  if (first === undefined) return 'one or more tasks are running';
  const reason = hook ? 'completion of hook' : 'healthy state of';
  return `waiting for ${reason} ${itemOf(first)}${moreOf(tasks)}`;
}

/** Message while waiting for deletions (prunes or BeforeHookCreation). */
export function waitingForDeletionMessage(tasks: readonly SyncTask[]): string {
  const hook = tasks.find((t) => t.isHook);
  const first = hook ?? tasks[0];
  if (first === undefined) return 'one or more tasks are running';
  return `waiting for deletion of ${hook ? 'hook ' : ''}${itemOf(first)}${moreOf(tasks)}`;
}

/** Message while a wave waits for `Prune=confirm` prunes to be confirmed (Argo CD's "pruning confirmation of"). */
export function waitingForConfirmationMessage(tasks: readonly SyncTask[]): string {
  const first = tasks[0];
  if (first === undefined) return 'one or more tasks are running';
  return `waiting for pruning confirmation of ${itemOf(first)}${moreOf(tasks)}`;
}
