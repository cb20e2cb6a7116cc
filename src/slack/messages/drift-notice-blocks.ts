/**
 * Drift detection's messages (issue 9), one builder for Slack and the terminal (renderBlocksAsText):
 *
 * ⚠️ guestbook → staging  ·  OutOfSync: 2 resources differ
 * • Deployment/guestbook-ui: spec.replicas changed
 * • Service/guestbook-ui: missing
 * syncPolicy.automated · selfHeal not allowed: production requires approval
 * [Sync]
 *
 * edited in place to `✅ guestbook → staging  ·  back in sync` when a later comparison finds no drift; and the
 * line a self-heal sync posts in its thread: `🔧 Self-heal: OutOfSync: 2 resources differ, syncing automatically`.
 */
import type { ResourceDifference } from '../../drift/index.js';
import { actions, type Block, button, context, plainFallback, type SlackMessage, section } from './block.js';
import { escapeMrkdwn, plural, truncate } from './format.js';

/** Action id of the drift notice's Sync button; its value is the Application name. */
export const DRIFT_SYNC_ACTION_ID = 'wavesync_drift_sync';

/** Differences listed in a notice; the rest are counted ("and 7 more"). */
const MAX_LISTED = 10;

export interface DriftNoticeView {
  application: string;
  /** Environment or destination, shown after the arrow. */
  destination: string;
  differences: readonly ResourceDifference[];
  /** `resolved`: `differences` are those the notice listed when posted. */
  state: { kind: 'out_of_sync'; why?: string } | { kind: 'resolved' };
}

/** `OutOfSync: 2 resources differ`. */
function outOfSyncTitle(count: number): string {
  return `OutOfSync: ${plural(count, 'resource')} ${count === 1 ? 'differs' : 'differ'}`;
}

/**
 * `• Deployment/web: spec.replicas changed` lines for the first `max` differences, as many as fit in `budget`
 * characters (one Slack section), then `…and N more`.
 */
function differenceLines(
  differences: readonly ResourceDifference[],
  max = MAX_LISTED,
  budget = 2500,
): string[] {
  const lines: string[] = [];
  let used = 0;
  for (const d of differences.slice(0, max)) {
    const what =
      d.reason === 'changed' ? `\`${escapeMrkdwn(truncate(d.path ?? 'fields', 120))}\` changed` : d.reason;
    const where = d.key.namespace ? ` (${escapeMrkdwn(d.key.namespace)})` : '';
    const line = `• \`${escapeMrkdwn(truncate(`${d.key.kind}/${d.key.name}`, 120))}\`${where}: ${what}`;
    if (used + line.length + 1 > budget) break;
    lines.push(line);
    used += line.length + 1;
  }
  if (differences.length > lines.length) lines.push(`…and ${differences.length - lines.length} more`);
  return lines;
}

/** The notice, with its Sync button while OutOfSync. */
export function driftNoticeBlocks(view: DriftNoticeView): SlackMessage {
  const app = `*${escapeMrkdwn(view.application)}* → ${escapeMrkdwn(view.destination)}`;
  const count = view.differences.length;
  if (view.state.kind === 'resolved') {
    const title = `✅ ${app}  ·  back in sync`;
    const was = `was ${outOfSyncTitle(count)} · syncPolicy.automated`;
    return { text: plainFallback(title), blocks: [section(title), context(was)] };
  }
  const title = `⚠️ ${app}  ·  ${outOfSyncTitle(count)}`;
  const why = view.state.why ? ` · ${escapeMrkdwn(view.state.why)}` : '';
  const blocks: Block[] = [
    section(truncate([title, ...differenceLines(view.differences)].join('\n'), 3000)),
    context(`syncPolicy.automated${why} · Sync runs \`/sync ${escapeMrkdwn(view.application)}\` as you`),
    actions(button(DRIFT_SYNC_ACTION_ID, 'Sync', view.application, 'primary')),
  ];
  return { text: plainFallback(title), blocks };
}

/** The first line of a self-heal sync's thread: why it was started. */
export function selfHealBlocks(differences: readonly ResourceDifference[], prune: boolean): SlackMessage {
  const pruning = prune ? 'prune: true' : 'prune: false, extra resources are kept';
  const title = `🔧 Self-heal: ${outOfSyncTitle(differences.length)}, syncing automatically (syncPolicy.automated.selfHeal, ${pruning})`;
  return {
    text: plainFallback(title),
    blocks: [section(truncate([title, ...differenceLines(differences)].join('\n'), 3000))],
  };
}
