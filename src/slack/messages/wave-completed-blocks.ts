/**
 * Thread reply for a completed step: `✓ Sync · wave 0 — 3 synced · Deployment/web Healthy after 18 s`.
 */
import type { SyncEvent } from '../../domain/index.js';
import { type SlackMessage, textMessage } from './block.js';
import { escapeMrkdwn, formatDuration, formatHealth, listNames, taskName, truncate } from './format.js';

type WaveCompleted = Extract<SyncEvent, { type: 'WaveCompleted' }>;

/** One line: outcome mark, step, resources synced and their health, duration; the failure message when failed. */
export function waveCompletedBlocks(event: WaveCompleted): SlackMessage {
  const mark = event.failed ? '✗' : '✓';
  const head = `${mark} ${event.wave.phase} · wave ${event.wave.wave}`;
  const after = `after ${formatDuration(event.durationMs)}`;
  if (event.failed) {
    return textMessage(`${head} — failed ${after}: ${escapeMrkdwn(truncate(event.message, 2000))}`);
  }
  return textMessage(`${head} — ${healthSummary(event.health)} ${after}`);
}

function healthSummary(health: WaveCompleted['health']): string {
  if (health.length === 0) return 'done';
  const unhealthy = health.filter((h) => h.health.status !== 'Healthy');
  if (unhealthy.length === 0) {
    return health.length === 1
      ? `${taskName(health[0]!.task)} Healthy`
      : `${health.length} resources Healthy`;
  }
  const shown = unhealthy.map((h) => `${taskName(h.task)} ${formatHealth(h.health)}`);
  const healthy = health.length - unhealthy.length;
  return `${listNames(shown, 3)}${healthy ? ` · ${healthy} Healthy` : ''}`;
}
