/**
 * The request path's gate for people (`deps.approvals` of createSlackApp; src/requests RequestGate), backed by the
 * approval flow: requestSync calls it after the header is posted and before anything is queued. `proceed` →
 * requestSync enqueues; `pending` → the approval flow took the request over: the header became the approval
 * message (Approve/Reject; the approved request comes back to requestSync); `refused` → the header says why, the
 * requester got an ephemeral note, and nothing is queued.
 */

import type { RequestApprovals } from '../environments/index.js';
import type { RequestGate } from '../requests/index.js';
import type { PolicyCheck, RequestPolicyQuery } from './ports.js';
import type { SlackApprovalMessenger } from './reporters/slack-approval-messenger.js';

export interface SlackApprovalGate extends RequestGate {
  /**
   * The request policy's answer for this request now (RequestApprovals.checkRequest): the refusal's reason, or allowed with
   * the verdict gate() reuses. Nothing is posted; with `audit` a refusal is written to the audit log.
   */
  policy(request: RequestPolicyQuery, options?: { audit?: boolean }): Promise<PolicyCheck>;
  /** True when an allowed request for `application` waits for approval (RequestApprovals.needsApproval). */
  needsApproval(application: string): boolean;
}

export function createApprovalGate(
  approvals: Pick<RequestApprovals, 'gateRequest' | 'checkRequest' | 'needsApproval'>,
  messenger: Pick<SlackApprovalMessenger, 'showRefusal' | 'tellUser'>,
): SlackApprovalGate {
  return {
    needsApproval: (application) => approvals.needsApproval(application),
    policy: (request, options) => approvals.checkRequest(request, options),
    async gate(request, { header, breakGlassReason, trigger, fromBotMessage, verdict }) {
      const result = await approvals.gateRequest({
        application: request.application,
        ...(request.deletion ? { deletion: request.deletion } : { operation: request.operation }),
        initiator: request.initiator,
        channel: header.channel,
        requestKey: request.requestKey,
        header,
        ...(breakGlassReason === undefined ? {} : { breakGlassReason }),
        ...(trigger ? { trigger } : {}),
        ...(fromBotMessage ? { fromBotMessage } : {}),
        ...(request.rollback ? { rollback: request.rollback } : {}),
        ...(request.promotion ? { promotion: request.promotion } : {}),
        ...(verdict ? { verdict } : {}),
      });
      if (result.kind === 'proceed') return 'proceed';
      if (result.kind === 'refused') {
        await messenger.showRefusal(header, request.application, result.reason);
        await messenger.tellUser(header.channel, request.initiator.userId, result.reason);
        return 'refused';
      }
      return 'pending';
    },
  };
}
