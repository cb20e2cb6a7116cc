/**
 * What an environment's notification channel gets:
 *
 * ❌ guestbook → production failed · revision 3f9c2e1 · requested by @pat, approved by @sam
 *    PreSync hook Job/db-migrate failed: relation "orders" does not exist
 *    <link to the thread> · @platform-oncall
 *
 * and, after the next good sync, `✅ guestbook → production recovered`.
 */

import { displayRevision } from '../../domain/index.js';
import {
  type FailureNotice,
  mentionOf,
  type RecoveryNotice,
  type SubscriptionNotice,
} from '../../environments/index.js';
import { type Block, context, plainFallback, type SlackMessage, section } from './block.js';
import { escapeMrkdwn, mention, truncate } from './format.js';
import { logTailText } from './hook-outcome-blocks.js';
import { rollbackButtonBlock } from './rollback-button.js';
import { rollbackTitle } from './sync-header-blocks.js';

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
    blocks: [
      section(truncate(`${title}\n${failure}`, 3000)),
      ...logTailBlocks(notice.logTail, notice.logSource),
      context(footer),
      ...(notice.rollbackable
        ? [rollbackButtonBlock({ application: notice.application, jobId: notice.jobId })]
        : []),
    ],
  };
}

/**
 * The failing hook's (or Degraded workload's failing Pod's) log tail as a code block of its own (the newest lines
 * that fit), under a line naming the Pod when it is a Pod's; or nothing.
 */
function logTailBlocks(lines: readonly string[] | undefined, source?: string): Block[] {
  if (!lines || lines.length === 0) return [];
  const whose = source ? [context(`📜 last lines of ${escapeMrkdwn(truncate(source, 300))}`)] : [];
  return [...whose, section(logTailText(lines))];
}

/**
 * A subscription's notice, one per trigger:
 * `🚀 *web* → staging deployed · revision 3f2a1c9 · requested by @pat` (+ the thread link), and for failures the
 * failing resource or hook, its log tail and a Roll back button.
 */
export function subscriptionNoticeBlocks(notice: SubscriptionNotice): SlackMessage {
  const app = `*${escapeMrkdwn(notice.application)}*${notice.destination ? ` → ${escapeMrkdwn(notice.destination)}` : ''}`;
  const revision = notice.revision ? ` · revision \`${escapeMrkdwn(displayRevision(notice.revision))}\`` : '';
  const rollback = notice.rollback ? ` · ${rollbackTitle(notice.rollback)}` : '';
  const title = `${noticeHeadline(notice, app)}${rollback}${revision} · requested by ${mention(notice.requester.userId)}`;
  const detail =
    notice.detail && !notice.cancelledBy ? `\n${escapeMrkdwn(truncate(notice.detail, 1500))}` : '';
  const link = notice.threadLink ? `<${notice.threadLink}|sync thread>` : 'sync thread unavailable';
  const button =
    notice.rollbackable && !notice.rollback
      ? [rollbackButtonBlock({ application: notice.application, jobId: notice.jobId })]
      : [];
  return {
    text: plainFallback(`${title}${detail}`),
    blocks: [
      section(truncate(`${title}${detail}`, 3000)),
      ...logTailBlocks(notice.logTail, notice.logSource),
      context(`${link} · \`${notice.trigger}\``),
      ...button,
    ],
  };
}

/** `❌ *web* → staging sync Failed`, `🚫 … sync cancelled by @pat: reason`, `🚀 … deployed`, … */
function noticeHeadline(notice: SubscriptionNotice, app: string): string {
  const { cancelledBy } = notice;
  if (cancelledBy) {
    const reason = cancelledBy.reason ? `: ${escapeMrkdwn(truncate(cancelledBy.reason, 300))}` : '';
    return `🚫 ${app} ${notice.rollback ? 'rollback' : 'sync'} cancelled by ${mention(cancelledBy.userId)}${reason}`;
  }
  switch (notice.trigger) {
    case 'on-sync-running':
      return `🔄 ${app} sync running`;
    case 'on-sync-succeeded':
      return `✅ ${app} sync Succeeded`;
    case 'on-sync-failed':
      return `❌ ${app} sync ${notice.phase === 'Error' ? 'errored' : 'Failed'}`;
    case 'on-health-degraded':
      return `⚠️ ${app} is Degraded after sync`;
    case 'on-deployed':
      return `🚀 ${app} deployed · Healthy`;
    case 'on-rollback':
      return `${notice.phase === 'Succeeded' ? '↩️' : '❌'} ${app} rollback ${notice.phase}`;
  }
}

export function recoveryNoticeBlocks(notice: RecoveryNotice): SlackMessage {
  const title = `✅ *${escapeMrkdwn(notice.application)}* → ${escapeMrkdwn(notice.environment)} recovered · revision \`${escapeMrkdwn(displayRevision(notice.revision))}\` · synced by ${mention(notice.requester.userId)}`;
  const link = notice.threadLink ? `<${notice.threadLink}|sync thread>` : 'sync thread unavailable';
  return { text: plainFallback(title), blocks: [section(title), context(link)] };
}
