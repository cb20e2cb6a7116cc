/**
 * `/sync history <app>`: the most recent syncs with their history id (`#41`, what `/sync rollback <app> 41` takes),
 * outcome, health, duration, revision and who asked.
 */
import type { HistoryEntry } from '../ports.js';
import { type Block, plainFallback, type SlackMessage, section } from './block.js';
import { escapeMrkdwn, formatDuration, formatHealth, mention, packLines, truncate } from './format.js';
import { shortRevision } from './sync-header-blocks.js';

export function historyBlocks(application: string, entries: readonly HistoryEntry[]): SlackMessage {
  const app = `*${escapeMrkdwn(application)}*`;
  if (entries.length === 0) {
    const line = `${app} has not been synced by wavesync yet.`;
    return { text: plainFallback(line), blocks: [section(line)] };
  }
  const lines = entries.map(entryLine);
  const blocks: Block[] = [
    section(`Last ${entries.length} syncs of ${app}:`),
    ...packLines(lines, 2900, 48).map(section),
  ];
  return { text: plainFallback(`Last syncs of ${application}:\n${lines.join('\n')}`), blocks };
}

function entryLine(e: HistoryEntry): string {
  const icon = e.phase === 'Succeeded' ? (e.health && e.health.status !== 'Healthy' ? '⚠️' : '✅') : '❌';
  const id = e.id === undefined ? '' : `*#${e.id}* `;
  const kind = e.rollback
    ? [
        `↩️ rollback to #${e.rollback.id}${e.rollback.undoes ? `, undoing the promotion from ${escapeMrkdwn(e.rollback.undoes.from)}${e.rollback.undoes.id ? ` (#${e.rollback.undoes.id})` : ''}` : ''}`,
      ]
    : e.promotion
      ? [
          `⏫ promoted from ${escapeMrkdwn(e.promotion.from)}${e.promotion.unverified ? ' (unverified, break glass)' : ''}`,
        ]
      : e.dryRun
        ? ['dry run']
        : e.deletion
          ? ['delete']
          : [];
  const parts = [`${icon} ${id}${utcMinute(e.finishedAt)}`, ...kind, e.phase];
  if (e.health) parts.push(formatHealth(e.health));
  parts.push(formatDuration(e.durationMs), `\`${escapeMrkdwn(shortRevision(e.revision))}\``);
  parts.push(`by ${mention(e.initiator.userId)}`);
  if (e.trigger) parts.push(`triggered by ${escapeMrkdwn(e.trigger)}`);
  if (e.phase !== 'Succeeded' && e.message) parts.push(escapeMrkdwn(truncate(e.message, 200)));
  return parts.join(' · ');
}

/** `2026-11-29 14:03 UTC` from an ISO-8601 timestamp. */
function utcMinute(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
