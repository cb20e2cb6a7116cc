/**
 * The chat side of approvals as a port: the Slack adapter (src/slack/reporters/slack-approval-messenger.ts) renders the
 * records with Block Kit; tests can record calls. Approvals never import Slack.
 */
import type { ApprovalRecord, MessageRef } from './approval-request.js';

export interface ApprovalMessenger {
  /** Post the approval request (plan summary, approvers, expiry, Approve/Reject) in its channel. */
  postApproval(record: ApprovalRecord): Promise<MessageRef>;
  /** Re-render the approval message for the record's current status (buttons go once it is not pending). */
  updateApproval(record: ApprovalRecord & { message: MessageRef }): Promise<void>;
  /** A reply in the approval message's thread. */
  replyInThread(message: MessageRef, text: string): Promise<void>;
  /** An ephemeral message only `userId` sees. */
  tellUser(channel: string, userId: string, text: string): Promise<void>;
}
