/**
 * The human form of a sync plan: one block per (phase, wave) step in execution order, a row per task (kind,
 * namespace, name, apiVersion, and for hooks their types and delete policies), then the warnings.
 */

import type { BuildSyncTasksResult, SyncTask } from '../engine/index.js';
import { clusterScopedIn } from '../engine/index.js';
import { plural } from '../slack/messages/format.js';

/** A readable table grouped by phase and wave, ending with a newline. */
export function formatPlanText(plan: BuildSyncTasksResult): string {
  const clusterScoped = clusterScopedIn(plan.tasks);
  const rows = plan.tasks.map((task) => rowOf(task, clusterScoped(task)));
  const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c]!.length), HEADER[c]!.length));
  const lines = plan.tasks.length > 0 ? [`  ${pad(HEADER, widths)}`] : [];
  let step = '';
  for (const [i, task] of plan.tasks.entries()) {
    const title = `${task.phase} · wave ${task.wave}`;
    if (title !== step) lines.push(title);
    step = title;
    lines.push(`  ${pad(rows[i]!, widths)}`);
  }
  if (plan.tasks.length === 0) lines.push('No tasks: the manifests hold no resources to sync.');
  const steps = countSteps(plan.tasks);
  lines.push('', `${plural(plan.tasks.length, 'task')} in ${plural(steps, 'step')}.`);
  if (plan.warnings.length > 0) {
    lines.push('', `Warnings (${plan.warnings.length}):`);
    for (const w of plan.warnings)
      lines.push(`  ${w.line > 0 ? `${w.file}:${w.line}` : w.file}: ${w.message}`);
  }
  return `${lines.join('\n')}\n`;
}

const HEADER = ['KIND', 'NAMESPACE', 'NAME', 'API VERSION', 'NOTES'];

function rowOf(task: SyncTask, clusterScoped: boolean): string[] {
  const apiVersion = task.group === '' ? task.version : `${task.group}/${task.version}`;
  const namespace = clusterScoped ? '-' : task.namespace || '-';
  return [task.kind, namespace, task.name, apiVersion, notesOf(task)];
}

function notesOf(task: SyncTask): string {
  const notes: string[] = [];
  if (task.isHook)
    notes.push(`hook ${task.hookTypes.join(',')}; delete policy ${task.deletePolicies.join(',')}`);
  if (task.targetObj === undefined) notes.push('prune');
  if (task.skipDryRun) notes.push('no dry run (created by this sync)');
  return notes.join('; ');
}

function pad(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((cell, c) => (c < widths.length ? cell.padEnd(widths[c]!) : cell))
    .join('  ')
    .trimEnd();
}

function countSteps(tasks: readonly SyncTask[]): number {
  return new Set(tasks.map((t) => `${t.phase}/${t.wave}`)).size;
}
