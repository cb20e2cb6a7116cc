/**
 * What an environment's notification channel gets:
 *
 * ❌ guestbook → production failed · revision 3f9c2e1 · requested by @pat, approved by @sam
 *    PreSync hook Job/db-migrate failed: relation "orders" does not exist
 *    <link to the thread> · @platform-oncall
 *
 * and, after the next good sync, `✅ guestbook → production recovered`.
 */

import { type FailureNotice, mentionOf, type RecoveryNotice } from '../../approvals/index.js';
import { displayRevision } from '../../domain/index.js';
import { context, plainFallback, type SlackMessage, section } from './block.js';
import { escapeMrkdwn, mention, truncate } from './format.js';

export function failureNoticeBlocks(notice: FailureNotice): SlackMessage {
  const what =
    notice.kind === 'failed' ? (notice.phase === 'Error' ? 'errored' : 'failed') : 'is Degraded after sync';
  const approved =
    notice.approvers.length > 0 ? `, approved by ${notice.approvers.map(mention).join(', ')}` : '';
  const title = `❌ *${escapeMrkdwn(notice.application)}* → ${escapeMrkdwn(notice.environment)} ${what} · revision \`${escapeMrkdwn(displayRevision(notice.revision))}\` · requested by ${mention(notice.requester.userId)}${approved}`;
  const failure = escapeMrkdwn(truncate(notice.failure, 1500));
  const link = notice.threadLink ? `<${notice.threadLink}|sync thread>` : 'sync thread unavailable';
  const mentions = notice.mention.map(mentionOf).join(' ');
  const footer = mentions ? `${link} · ${mentions}` : link;
  return {
    text: plainFallback(`${title}: ${notice.failure} ${mentions}`),
    blocks: [section(truncate(`${title}\n${failure}`, 3000)), context(footer)],
  };
}

export function recoveryNoticeBlocks(notice: RecoveryNotice): SlackMessage {
  const title = `✅ *${escapeMrkdwn(notice.application)}* → ${escapeMrkdwn(notice.environment)} recovered · revision \`${escapeMrkdwn(displayRevision(notice.revision))}\` · synced by ${mention(notice.requester.userId)}`;
  const link = notice.threadLink ? `<${notice.threadLink}|sync thread>` : 'sync thread unavailable';
  return { text: plainFallback(title), blocks: [section(title), context(link)] };
}
