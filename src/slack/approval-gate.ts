/**
 * The `/sync` command's approval hook (`deps.approvals` of createSlackApp), backed by the approval flow: called
 * after the header is posted and before anything is queued. `proceed` → the command enqueues; `pending` → the
 * approval flow took the request over: the header became the approval message (Approve/Reject; the flow queues
 * once approved); `refused` → the header says why, the requester got an ephemeral note, and nothing is queued.
 */

import type { DeletionPlan } from '../deletion/application-deletion.js';
import type { Approvals, MessageRef } from '../environments/index.js';
import type { SyncRequest } from '../queue/index.js';
import type { RequestPolicyQuery } from './ports.js';
import type { SlackApprovalMessenger } from './reporters/slack-approval-messenger.js';

export interface ApprovalGateContext {
  header: MessageRef;
  /** `--break-glass "reason"` when given. */
  breakGlassReason?: string;
  /** `/sync delete`: the plan the requester confirmed, shown to the approvers. */
  deletionPlan?: DeletionPlan;
  /** What started it when not a typed command (audited), e.g. `drift notice Sync button`. */
  trigger?: string;
  /** A button on a message the bot posted (the Roll back button), not a typed command. */
  fromBotMessage?: boolean;
}

export interface SlackApprovalGate {
  gate(request: SyncRequest, context: ApprovalGateContext): Promise<'proceed' | 'pending' | 'refused'>;
  /**
   * The refusal text the gate would give this request now, or undefined. Nothing is posted; with `audit` a
   * refusal is written to the audit log.
   */
  refusal(request: RequestPolicyQuery, options?: { audit?: boolean }): Promise<string | undefined>;
  /** True when an allowed request for `application` waits for approval (Approvals.needsApproval). */
  needsApproval(application: string): boolean;
}

export function createApprovalGate(
  approvals: Pick<Approvals, 'requestSync' | 'checkRequest' | 'needsApproval'>,
  messenger: Pick<SlackApprovalMessenger, 'showRefusal' | 'tellUser'>,
): SlackApprovalGate {
  return {
    needsApproval: (application) => approvals.needsApproval(application),
    async refusal(request, options) {
      const checked = await approvals.checkRequest(request, options);
      return checked.allowed ? undefined : checked.reason;
    },
    async gate(request, { header, breakGlassReason, deletionPlan, trigger, fromBotMessage }) {
      const result = await approvals.requestSync({
        application: request.application,
        operation: request.operation,
        initiator: request.initiator,
        channel: header.channel,
        requestKey: request.requestKey,
        header,
        ...(breakGlassReason === undefined ? {} : { breakGlassReason }),
        ...(trigger ? { trigger } : {}),
        ...(fromBotMessage ? { fromBotMessage } : {}),
        ...(request.rollback ? { rollback: request.rollback } : {}),
        ...(request.deletion && deletionPlan
          ? { deletion: { request: request.deletion, plan: deletionPlan } }
          : {}),
      });
      if (result.kind === 'enqueue') return 'proceed';
      if (result.kind === 'refused') {
        await messenger.showRefusal(header, request.application, result.reason);
        await messenger.tellUser(header.channel, request.initiator.userId, result.reason);
        return 'refused';
      }
      return 'pending';
    },
  };
}
