/**
 * Wave order of prune tasks. Source: gitops-engine `pkg/sync/sync_context.go` getSyncTasks (gitops-engine #538,
 * Argo CD v2.11+); spec §3.4.
 *
 * 1. The distinct natural waves of the prune tasks, sorted, are swapped symmetrically (lowest ↔ highest, …), so
 *    prunes run in reverse wave order on the wave numbers the prune set already uses.
 * 2. PruneLast (operation option, or `PruneLast=true` in the live object's sync-options): the prune moves to
 *    max(0, highest Sync-phase wave after step 1) + 1.
 * @example prunes at waves {1,3,3,4,5} become {5,4,4,3,1} (test TestWaveReorderingOfPruneTasks)
 */
import { Annotations } from '../../domain/index.js';
import { hasAnnotationOption } from '../object-annotations.js';
import { isPruneTask, type SyncTask } from '../sync-task.js';

/** Rewrites the `wave` of the prune tasks in place; apply and hook tasks keep their waves. */
export function reorderPruneWaves(tasks: SyncTask[], pruneLast: boolean): void {
  const prunes = tasks.filter(isPruneTask);
  const waves = [...new Set(prunes.map((task) => task.wave))].sort((a, b) => a - b);
  const swapped = new Map(waves.map((wave, i) => [wave, waves[waves.length - 1 - i] ?? wave]));
  for (const task of prunes) task.wave = swapped.get(task.wave) ?? task.wave;

  const last = prunes.filter((task) => pruneLast || isPruneLast(task));
  if (last.length === 0) return;
  let lastWave = 0;
  for (const task of tasks) if (task.phase === 'Sync' && task.wave > lastWave) lastWave = task.wave;
  for (const task of last) task.wave = lastWave + 1;
}

function isPruneLast(task: SyncTask): boolean {
  return (
    task.liveObj !== undefined && hasAnnotationOption(task.liveObj, Annotations.syncOptions, 'PruneLast=true')
  );
}
