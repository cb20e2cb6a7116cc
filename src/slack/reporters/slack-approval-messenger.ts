/**
 * The Slack side of the approval flow and of failure notifications: renders approval records and notices with
 * Block Kit (messages/approval-request-blocks.ts, messages/failure-notice-blocks.ts) and sends them with the
 * Web API (chat.postMessage, chat.update, chat.postEphemeral, chat.getPermalink). A Slack error rejects with
 * the Web API's error (`code`, `data.error`), for the caller to log.
 */
import type { WebClient } from '@slack/web-api';
import type { ApprovalMessenger, MessageRef, NotificationPoster } from '../../environments/index.js';
import { ChannelPacer, type ChannelSlots } from '../../thread/index.js';
import { approvalRefusedBlocks, approvalRequestBlocks } from '../messages/approval-request-blocks.js';
import { textMessage } from '../messages/block.js';
import {
  failureNoticeBlocks,
  recoveryNoticeBlocks,
  subscriptionNoticeBlocks,
} from '../messages/failure-notice-blocks.js';

export interface SlackApprovalMessenger extends ApprovalMessenger, NotificationPoster {
  /** Turn a sync header into "not synced: <reason>" (a refused request; nothing was queued). */
  showRefusal(header: MessageRef, application: string, reason: string): Promise<void>;
}

/**
 * `pacer`: notices (failure, recovery, subscriptions) to one channel are spaced by it — Slack allows about one
 * message per second per channel. The composition root passes the Redis-backed one
 * (src/thread/redis-channel-pacer.ts), so every process's notices to a channel share its slots; default one pacer
 * per messenger (per process), 1 s apart.
 */
export function createSlackApprovalMessenger(
  client: WebClient,
  pacer: ChannelSlots = new ChannelPacer(),
): SlackApprovalMessenger {
  const notify = async (channel: string, message: ReturnType<typeof failureNoticeBlocks>) => {
    await pacer.acquire(channel);
    await client.chat.postMessage({ channel, ...message });
  };
  return {
    async postApproval(record) {
      const res = await client.chat.postMessage({
        channel: record.request.channel,
        ...approvalRequestBlocks(record),
      });
      return { channel: res.channel ?? record.request.channel, ts: res.ts ?? '' };
    },
    async updateApproval(record) {
      await client.chat.update({
        channel: record.message.channel,
        ts: record.message.ts,
        ...approvalRequestBlocks(record),
      });
    },
    async showRefusal(header, application, reason) {
      await client.chat.update({
        channel: header.channel,
        ts: header.ts,
        ...approvalRefusedBlocks(application, reason),
      });
    },
    async replyInThread(message, text) {
      await client.chat.postMessage({
        channel: message.channel,
        thread_ts: message.ts,
        ...textMessage(text),
      });
    },
    async tellUser(channel, userId, text) {
      await client.chat.postEphemeral({ channel, user: userId, ...textMessage(text) });
    },
    async permalink(target) {
      const res = await client.chat.getPermalink({ channel: target.channel, message_ts: target.threadTs });
      return res.permalink;
    },
    postFailure: (channel, notice) => notify(channel, failureNoticeBlocks(notice)),
    postRecovery: (channel, notice) => notify(channel, recoveryNoticeBlocks(notice)),
    postNotice: (channel, notice) => notify(channel, subscriptionNoticeBlocks(notice)),
  };
}

/** usergroups.users.list as the GroupMembership's `list` (Tier 2: cache it, see createGroupMembership). */
export function slackGroupMembers(client: WebClient): (groupId: string) => Promise<readonly string[]> {
  return async (groupId) => (await client.usergroups.users.list({ usergroup: groupId })).users ?? [];
}
