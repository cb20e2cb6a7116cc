/**
 * The final thread reply: the sync outcome **and** the app health observed after it —
 * `🎉 Succeeded in 1:07 · Healthy after 42 s · 4 resources synced, 1 pruned, 3 hooks run`, or
 * `⚠️ Succeeded in 1:07 · Degraded: Deployment web ImagePullBackOff`, or `❌ Failed in 0:19 · <message>`.
 */
import type { CancelledBy, OperationState } from '../../domain/index.js';
import { isAlarming, type SyncSummary } from '../../thread/index.js';
import { plainFallback, type SlackMessage, section } from './block.js';
import { escapeMrkdwn, formatDuration, listNames, plural, truncate } from './format.js';
import { type RollbackButtonValue, rollbackButtonBlock } from './rollback-button.js';

/**
 * One section with the outcome line; with `rollback`, an alarming outcome (failed, or not Healthy after it) also
 * gets a Roll back button to the last good revision.
 */
export function syncSummaryBlocks(summary: SyncSummary, rollback?: RollbackButtonValue): SlackMessage {
  if (summary.cancelledBy) return cancelledSummaryBlocks(summary, summary.cancelledBy);
  const parts = [`${summaryIcon(summary)} ${summary.phase} in ${formatDuration(summary.durationMs)}`];
  if (summary.phase !== 'Succeeded') parts.push(escapeMrkdwn(truncate(summary.message, 1500)));
  if (summary.health) parts.push(healthPart(summary.health));
  const counts = summary.state ? resultCounts(summary.state) : '';
  if (counts) parts.push(counts);
  const line = parts.join(' · ');
  const button = rollback && isAlarming(summary) ? [rollbackButtonBlock(rollback)] : [];
  return { text: plainFallback(line), blocks: [section(line), ...button] };
}

/** `🚫 Cancelled by @pat after 0:42: wrong branch · Operation terminated · 2 resources synced` (Terminated). */
function cancelledSummaryBlocks(summary: SyncSummary, by: CancelledBy): SlackMessage {
  const reason = by.reason ? `: ${escapeMrkdwn(truncate(by.reason, 300))}` : '';
  const parts = [
    `🚫 Cancelled by <@${by.userId}> after ${formatDuration(summary.durationMs)}${reason}`,
    escapeMrkdwn(truncate(summary.message, 300)),
  ];
  const counts = summary.state ? resultCounts(summary.state) : '';
  if (counts) parts.push(counts);
  const line = parts.join(' · ');
  return { text: plainFallback(line), blocks: [section(line)] };
}

function summaryIcon(summary: SyncSummary): string {
  if (summary.phase !== 'Succeeded') return '❌';
  return isAlarming(summary) ? '⚠️' : '🎉';
}

function healthPart(h: NonNullable<SyncSummary['health']>): string {
  if (h.health.status === 'Healthy') return `Healthy after ${formatDuration(h.afterMs)}`;
  const worst = h.unhealthy.map(
    (u) => `${u.task.kind} ${u.task.name} ${u.health.message ?? u.health.status}`,
  );
  const detail = worst.length ? listNames(worst.map(escapeMrkdwn), 3) : escapeMrkdwn(h.health.message ?? '');
  return detail ? `${h.health.status}: ${truncate(detail, 1000)}` : h.health.status;
}

/** `4 resources synced, 1 pruned, 3 hooks run` from the operation's results (empty when nothing ran). */
function resultCounts(state: OperationState): string {
  const results = state.syncResult.resources;
  const synced = results.filter((r) => !r.hookType && r.status === 'Synced').length;
  const pruned = results.filter((r) => r.status === 'Pruned').length;
  const hooks = results.filter((r) => r.hookType !== undefined).length;
  const parts: string[] = [];
  if (synced) parts.push(`${plural(synced, 'resource')} synced`);
  if (pruned) parts.push(`${pruned} pruned`);
  if (hooks) parts.push(`${plural(hooks, 'hook')} run`);
  return parts.join(', ');
}
