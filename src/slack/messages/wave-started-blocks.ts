/**
 * Thread replies for the start of a step: `▶ PreSync · wave 1 — running hook Job/db-migrate`, and the
 * SyncFail phase starting after a failure.
 */
import type { SyncEvent, TaskRef } from '../../domain/index.js';
import { type SlackMessage, textMessage } from './block.js';
import { listNames, plural, taskName } from './format.js';

type WaveStarted = Extract<SyncEvent, { type: 'WaveStarted' }>;
type SyncFailStarted = Extract<SyncEvent, { type: 'SyncFailStarted' }>;

/** `▶ Sync · wave 0 — applying 3 resources: Service/web, Deployment/web, Ingress/web`. */
export function waveStartedBlocks(event: WaveStarted): SlackMessage {
  return textMessage(`▶ ${event.wave.phase} · wave ${event.wave.wave} — ${describeTasks(event.tasks)}`);
}

/** `▶ SyncFail · running hook Job/page-oncall`. */
export function syncFailStartedBlocks(event: SyncFailStarted): SlackMessage {
  return textMessage(`▶ SyncFail · ${describeTasks(event.tasks)}`);
}

/** What a step does, in gitops-engine's words: applies resources, prunes, runs hooks. */
function describeTasks(tasks: readonly TaskRef[]): string {
  const hooks = tasks.filter((t) => t.isHook).map(taskName);
  const prunes = tasks.filter((t) => !t.isHook && t.isPrune).map(taskName);
  const applies = tasks.filter((t) => !t.isHook && !t.isPrune).map(taskName);
  const parts: string[] = [];
  if (applies.length) parts.push(`applying ${plural(applies.length, 'resource')}: ${listNames(applies)}`);
  if (prunes.length) parts.push(`pruning ${plural(prunes.length, 'resource')}: ${listNames(prunes)}`);
  if (hooks.length)
    parts.push(`running ${hooks.length === 1 ? 'hook' : `${hooks.length} hooks:`} ${listNames(hooks)}`);
  return parts.length ? parts.join(' · ') : 'nothing to do';
}

type PruneConfirmationRequired = Extract<SyncEvent, { type: 'PruneConfirmationRequired' }>;

/**
 * `⏸ Sync · wave 0 — pruning waits for confirmation (Prune=confirm): ConfigMap/a`: the wave prunes nothing until
 * someone confirms; the hint names how (`/sync confirm-prune <app>`).
 */
export function pruneConfirmationBlocks(event: PruneConfirmationRequired, application: string): SlackMessage {
  const names = listNames(event.tasks.map(taskName));
  return textMessage(
    `⏸ ${event.wave.phase} · wave ${event.wave.wave} — pruning waits for confirmation (Prune=confirm): ${names}. ` +
      `Confirm with \`/sync confirm-prune ${application}\`.`,
  );
}
