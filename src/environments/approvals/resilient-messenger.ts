/**
 * Chat delivery after a decision is best effort: the decision is already in Redis, so a Slack error (rate limit,
 * outage) while updating the message, replying or telling a user is reported to `onError` and swallowed rather
 * than undoing or blocking the flow. Posting the approval request itself still fails loudly (no message, no
 * request).
 */
import type { DurableWrites } from '../../queue/index.js';
import type { ApprovalMessenger } from './approval-messenger.js';

export function resilientMessenger(
  messenger: ApprovalMessenger,
  onError: (error: unknown) => void,
): ApprovalMessenger {
  const quietly = async (send: () => Promise<void>) => {
    try {
      await send();
    } catch (error) {
      onError(error);
    }
  };
  return {
    postApproval: (record) => messenger.postApproval(record),
    updateApproval: (record) => quietly(() => messenger.updateApproval(record)),
    replyInThread: (message, text) => quietly(() => messenger.replyInThread(message, text)),
    tellUser: (channel, userId, text) => quietly(() => messenger.tellUser(channel, userId, text)),
  };
}

/**
 * Acknowledge only what is durable: the approval message (posted, re-rendered with a decision) and its thread
 * replies ("sync queued") wait until `durable` confirms the writes behind them; an ephemeral `tellUser` does not
 * (it confirms nothing). @throws NotReplicatedError from `durable`: the click's listener tells the clicker.
 */
export function confirmedBeforeShown(
  messenger: ApprovalMessenger,
  durable: DurableWrites,
): ApprovalMessenger {
  return {
    postApproval: async (record) => {
      await durable.confirm();
      return messenger.postApproval(record);
    },
    updateApproval: async (record) => {
      await durable.confirm();
      await messenger.updateApproval(record);
    },
    replyInThread: async (message, text) => {
      await durable.confirm();
      await messenger.replyInThread(message, text);
    },
    tellUser: (channel, userId, text) => messenger.tellUser(channel, userId, text),
  };
}
