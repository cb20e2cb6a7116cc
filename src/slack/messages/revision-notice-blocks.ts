/**
 * Sync on push's messages (src/revisions), one builder for Slack and the terminal (renderBlocksAsText):
 *
 * 🆕 guestbook → staging  ·  main moved to 3f9c2e1 (by Ana: "Bump image"), 2 files changed
 * not automated · Sync runs `/sync guestbook --revision 3f9c2e1` as you
 * [Sync] [Diff]
 *
 * and, for an automated Application during a freeze window:
 * ⏸ guestbook → production  ·  main moved to 3f9c2e1: the automated sync waits (production is in freeze window …)
 */
import type { CommitSummary } from '../../applications/index.js';
import { actions, button, context, plainFallback, type SlackMessage, section } from './block.js';
import { escapeMrkdwn, plural, truncate } from './format.js';

/** Action ids of the message's buttons; their value is `<application> <revision>`. */
export const REVISION_SYNC_ACTION_ID = 'wavesync_revision_sync';
export const REVISION_DIFF_ACTION_ID = 'wavesync_revision_diff';

export interface RevisionNoticeView {
  application: string;
  destination: string;
  /** `main`, or the targetRevision (a tag, a range, a chart's version range). */
  what: string;
  /** Short form shown (`3f9c2e1`, `1.2.3`). */
  revision: string;
  /** The full revision the buttons carry. */
  fullRevision: string;
  commit?: CommitSummary;
  /** Why it is not synced automatically (`not automated`, `production has autoSync: false`). */
  why: string;
}

/** `main moved to 3f9c2e1 (by Ana: "Bump image"), 2 files changed`. */
function movedLine(view: Pick<RevisionNoticeView, 'what' | 'revision' | 'commit'>): string {
  const commit = view.commit;
  const by = commit
    ? ` (by ${escapeMrkdwn(commit.author)}: "${escapeMrkdwn(truncate(commit.subject, 120))}")`
    : '';
  const files = commit ? `, ${plural(commit.files.length, 'file')} changed` : '';
  return `\`${escapeMrkdwn(view.what)}\` moved to \`${escapeMrkdwn(view.revision)}\`${by}${files}`;
}

export function revisionNoticeBlocks(view: RevisionNoticeView): SlackMessage {
  const title = `🆕 *${escapeMrkdwn(view.application)}* → ${escapeMrkdwn(view.destination)}  ·  ${movedLine(view)}`;
  const value = `${view.application} ${view.fullRevision}`;
  return {
    text: plainFallback(title),
    blocks: [
      section(truncate(title, 3000)),
      context(
        `${escapeMrkdwn(view.why)} · Sync runs \`/sync ${escapeMrkdwn(view.application)} --revision ${escapeMrkdwn(view.revision)}\` as you`,
      ),
      actions(
        button(REVISION_SYNC_ACTION_ID, 'Sync', value, 'primary'),
        button(REVISION_DIFF_ACTION_ID, 'Diff', value),
      ),
    ],
  };
}

export function revisionWaitBlocks(
  view: Pick<RevisionNoticeView, 'application' | 'destination' | 'what' | 'revision'> & { reason: string },
): SlackMessage {
  const title = `⏸ *${escapeMrkdwn(view.application)}* → ${escapeMrkdwn(view.destination)}  ·  ${movedLine(view)}: the automated sync waits (${escapeMrkdwn(view.reason)})`;
  return { text: plainFallback(title), blocks: [section(truncate(title, 3000))] };
}

/** The button value `<application> <revision>` → its parts, or undefined when malformed. */
export function parseRevisionButtonValue(
  value: string | undefined,
): { application: string; revision: string } | undefined {
  const [application, revision, ...rest] = (value ?? '').split(' ');
  return application && revision && rest.length === 0 ? { application, revision } : undefined;
}
