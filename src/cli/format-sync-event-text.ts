/**
 * Terminal lines for sync progress, one SyncEvent at a time (as they happen), in gitops-engine's words.
 * Returns undefined for events that print nothing.
 */
import { displayRevision, type SyncEvent, type TaskRef, type WaveRef } from '../domain/index.js';
import { listNames, plural } from '../slack/messages/format.js';

function task(ref: TaskRef): string {
  return `${ref.kind}/${ref.name}${ref.namespace ? ` (${ref.namespace})` : ''}`;
}

function wave(ref: WaveRef): string {
  const step = ref.index > 0 ? ` [step ${ref.index}/${ref.total}]` : '';
  return `${ref.phase} wave ${ref.wave}${step}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

function indent(lines: string[]): string {
  return lines.map((line) => `      | ${line}`).join('\n');
}

export function formatSyncEventText(event: SyncEvent): string | undefined {
  switch (event.type) {
    case 'OperationStarted': {
      const verb = event.resumed ? 'Resuming' : 'Syncing';
      const dry = event.operation.dryRun ? ' (dry run)' : '';
      const head = `${verb} ${event.application} at ${displayRevision(event.revision, event.ref)}${dry}: ${plural(event.waves.length, 'step')}`;
      return [head, ...(event.warnings ?? []).map((w) => `  ⚠ ${w}`)].join('\n');
    }
    case 'WaveStarted':
      // A wave of thousands of objects is one readable line: the first names, then how many more.
      return `▶ ${wave(event.wave)}: ${listNames(event.tasks.map(task), 10)}`;
    case 'ResourceApplied': {
      const mark = event.status === 'SyncFailed' ? '✗' : '✓';
      return `  ${mark} ${task(event.task)}: ${event.status} — ${event.message}`;
    }
    case 'HookStarted':
      return `  ⏳ ${event.hookType} hook ${task(event.task)} started`;
    case 'HookFinished': {
      const mark = event.hookPhase === 'Succeeded' ? '✓' : '✗';
      const head = `  ${mark} ${event.hookType} hook ${task(event.task)} ${event.hookPhase} in ${seconds(event.durationMs)}`;
      const message = event.message ? ` — ${event.message}` : '';
      return event.logTail.length > 0 ? `${head}${message}\n${indent(event.logTail)}` : head + message;
    }
    case 'WaveCompleted': {
      const unhealthy = event.health.filter((h) => h.health.status !== 'Healthy');
      const health = unhealthy.map((h) => `${task(h.task)} ${h.health.status}`).join(', ');
      const took = seconds(event.durationMs);
      const outcome = event.failed ? `failed after ${took}: ${event.message}` : `completed in ${took}`;
      // Only the last step completes with resources not yet Healthy (Argo CD does not await it, spec §4.4a).
      const settling = health && !event.failed ? ` (still settling: ${health}; watched after the sync)` : '';
      return `◼ ${wave(event.wave)} ${outcome}${event.failed && health ? ` (${health})` : settling}`;
    }
    case 'PruneConfirmationRequired':
      return (
        `⏸ ${wave(event.wave)} waits for pruning confirmation (Prune=confirm): ${event.tasks.map(task).join(', ')}` +
        ' — run again with --confirm-prune; it waits until --timeout, or Ctrl-C'
      );
    case 'WaveWaiting':
      return `  … ${wave(event.wave)} waits for:\n${event.waiting.map((w) => `      ${w.reason}`).join('\n')}`;
    case 'SyncFailStarted':
      return `▶ SyncFail hooks: ${event.tasks.map(task).join(', ')}`;
    case 'OperationCompleted':
      return `${event.phase}: ${event.message} (${seconds(event.durationMs)})`;
    case 'ResourcesDeleted':
      return `🗑 wave ${event.syncWave}: deleted ${event.resources.map(task).join(', ')} (${event.propagationPolicy})`;
    case 'DeletionHookFinished':
      return `  ${event.hookPhase === 'Succeeded' ? '✓' : '✗'} ${event.hookType} hook ${task(event.task)} ${event.hookPhase}${event.message ? ` — ${event.message}` : ''}`;
    case 'ResourcesKept':
      return `kept ${event.kept.map((k) => `${task(k.task)} (${k.reason})`).join(', ')}`;
    case 'HealthWaiting':
      // One line per resource not Healthy yet; printed again only when a reason changes.
      return event.waiting
        .map((w) => `  … app health (waits up to ${seconds(event.timeoutMs)}): ${w.reason}`)
        .join('\n');
    case 'HealthAssessed': {
      const detail = event.health.message ? ` — ${event.health.message}` : '';
      return `App health: ${event.health.status}${detail}`;
    }
  }
}
