/**
 * Chat delivery after a decision is best effort: the decision is already in Redis, so a Slack error (rate limit,
 * outage) while updating the message, replying or telling a user is reported to `onError` and swallowed rather
 * than undoing or blocking the flow. Posting the approval request itself still fails loudly (no message, no
 * request).
 */
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
