/**
 * App of Apps lines in the parent's thread: the announcement of the children
 * (`App of Apps: syncing 5 children of apps in order, each after the previous is Healthy: …`), one line per child
 * updated in place as the child syncs (`↳ example.guestbook · Sync wave 1…` → `↳ ✅ example.guestbook Succeeded ·
 * Healthy · 12 s`), and the final summary (`✅ App of Apps: 5/5 children synced and Healthy`).
 */
import type { AppOfAppsSummary, ChildOutcome } from '../../app-of-apps/index.js';
import type { ChildLineView } from '../../thread/index.js';
import { type SlackMessage, textMessage } from './block.js';
import { escapeMrkdwn, formatDuration, listNames, plural, truncate } from './format.js';

/** `↳ example.guestbook · Sync wave 1…`, or the child's outcome. */
export function childLineBlocks(view: ChildLineView): SlackMessage {
  const name = `*${escapeMrkdwn(view.application)}*`;
  if (view.kind === 'running') {
    const where = view.wave ? `${view.wave.phase} wave ${view.wave.wave}` : 'starting';
    return textMessage(`↳ ${name} · ${where}…`);
  }
  const took = formatDuration(view.durationMs);
  if (view.phase !== 'Succeeded') {
    return textMessage(`↳ ❌ ${name} ${view.phase}: ${escapeMrkdwn(truncate(view.message, 1000))} · ${took}`);
  }
  const health = view.health;
  if (!health || health.status === 'Healthy') {
    return textMessage(`↳ ✅ ${name} Succeeded · ${health ? 'Healthy' : 'health unknown'} · ${took}`);
  }
  const detail = health.message ? `: ${escapeMrkdwn(truncate(health.message, 500))}` : '';
  return textMessage(`↳ ⚠️ ${name} Succeeded · ${health.status}${detail} · ${took}`);
}

/** The parent's thread, before the first child starts. */
export function childrenStartingBlocks(input: {
  parent: string;
  children: readonly string[];
  gateOnHealth: boolean;
}): SlackMessage {
  const how = input.gateOnHealth ? 'each after the previous is Healthy' : 'each after the previous started';
  const names = listNames(input.children.map(escapeMrkdwn), 10);
  return textMessage(
    `App of Apps: syncing ${plural(input.children.length, 'child', 'children')} of ${escapeMrkdwn(input.parent)} in order, ${how}: ${names}`,
  );
}

/** The parent's thread, after the last child (or the one that stopped the sequence). */
export function appOfAppsSummaryBlocks(summary: AppOfAppsSummary): SlackMessage {
  const good = summary.problems.length === 0 && summary.notSynced.length === 0;
  const parts = [
    `${good ? '✅' : '❌'} App of Apps: ${summary.healthy.length}/${summary.total} children synced and Healthy`,
  ];
  for (const { name, outcome } of summary.problems) parts.push(problemText(name, outcome));
  if (summary.notSynced.length > 0) {
    parts.push(`not synced: ${listNames(summary.notSynced.map(escapeMrkdwn), 10)}`);
  }
  return textMessage(parts.join(' · '));
}

/** A child that failed to start its chain step, e.g. an invalid child Application in the parent's manifests. */
export function childrenNotSyncedBlocks(parent: string, reason: string): SlackMessage {
  return textMessage(
    `❌ App of Apps: the children of ${escapeMrkdwn(parent)} were not synced: ${escapeMrkdwn(truncate(reason, 1500))}`,
  );
}

function problemText(name: string, outcome: ChildOutcome): string {
  const who = escapeMrkdwn(name);
  if (outcome.phase === 'Running') return `${who} still running`;
  if (outcome.phase !== 'Succeeded') {
    return `${who} ${outcome.phase}: ${escapeMrkdwn(truncate(outcome.message, 500))}`;
  }
  const detail = outcome.healthMessage ? `: ${escapeMrkdwn(truncate(outcome.healthMessage, 300))}` : '';
  return `${who} ${outcome.health}${detail}`;
}
