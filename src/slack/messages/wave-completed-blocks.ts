/**
 * Thread reply for a completed step: `✓ Sync · wave 0 — Deployment/web Healthy after 18 s`. A step can complete
 * with resources not yet Healthy — the last step, whose health Argo CD does not await (spec §4.4a) — and then
 * says so: `✓ Sync · wave 0 — applied after 0.1 s · still settling: Deployment/web Progressing · 1 Healthy ·
 * health is watched after the sync`, so a ✓ never reads as "Progressing is fine". `waitedFor`: why the step
 * waited (its last WaveWaiting reasons), said when the header never showed them (its updates are throttled and
 * budgeted): `… Healthy after 3 s · waited for Database/orders-db: Provisioning postgres 16`.
 */
import type { SyncEvent } from '../../domain/index.js';
import { type SlackMessage, textMessage } from './block.js';
import { escapeMrkdwn, formatDuration, formatHealth, listNames, taskName, truncate } from './format.js';

type WaveCompleted = Extract<SyncEvent, { type: 'WaveCompleted' }>;

/** One line: outcome mark, step, resources synced and their health, duration; the failure message when failed. */
export function waveCompletedBlocks(event: WaveCompleted, waitedFor: readonly string[] = []): SlackMessage {
  const message = completedLine(event);
  if (event.failed || waitedFor.length === 0) return textMessage(message);
  return textMessage(`${message} · waited for ${escapeMrkdwn(truncate(listNames(waitedFor, 3), 1000))}`);
}

function completedLine(event: WaveCompleted): string {
  const mark = event.failed ? '✗' : '✓';
  const head = `${mark} ${event.wave.phase} · wave ${event.wave.wave}`;
  const after = `after ${formatDuration(event.durationMs)}`;
  if (event.failed) {
    return `${head} — failed ${after}: ${escapeMrkdwn(truncate(event.message, 2000))}`;
  }
  const { health } = event;
  if (health.length === 0) return `${head} — done ${after}`;
  const unhealthy = health.filter((h) => h.health.status !== 'Healthy');
  if (unhealthy.length === 0) {
    const healthy =
      health.length === 1 ? `${taskName(health[0]!.task)} Healthy` : `${health.length} resources Healthy`;
    return `${head} — ${healthy} ${after}`;
  }
  const shown = unhealthy.map((h) => `${taskName(h.task)} ${formatHealth(h.health)}`);
  const healthy = health.length - unhealthy.length;
  return (
    `${head} — applied ${after} · still settling: ${escapeMrkdwn(truncate(listNames(shown, 3), 2000))}` +
    `${healthy ? ` · ${healthy} Healthy` : ''} · health is watched after the sync`
  );
}
