/**
 * authorizeDecision — may the user who clicked approve or reject this request? The user is the Slack payload's
 * `user.id` only (never anything carried in the button's value). Approve: a configured approver (listed, or a
 * member of a listed user group), and not the requester unless `allowSelfApproval`. Reject: an approver, or the
 * requester withdrawing their own request. Distinctness of approvals is enforced atomically by the store.
 */
import type { EnvironmentSettings } from '../settings/environments-schema.js';
import type { IsMemberOfAny } from './authorize-request.js';
import { describePrincipals, isPrincipal } from './principal-mentions.js';

export type Decision = 'approve' | 'reject';

export interface DecisionContext {
  decision: Decision;
  /** From the Slack payload (`body.user.id`). */
  userId: string;
  requesterId: string;
  application: string;
  environment: string;
}

export type DecisionAuthorization = { allowed: true } | { allowed: false; reason: string };

export async function authorizeDecision(
  env: EnvironmentSettings,
  ctx: DecisionContext,
  isMemberOfAny: IsMemberOfAny,
): Promise<DecisionAuthorization> {
  const approvers = describePrincipals(env.approvers);
  const isRequester = ctx.userId === ctx.requesterId;
  if (ctx.decision === 'reject' && isRequester) return { allowed: true };
  if (ctx.decision === 'approve' && isRequester && !env.allowSelfApproval) {
    return {
      allowed: false,
      reason: `You requested this sync; someone else from ${approvers} must approve it.`,
    };
  }
  let approver: boolean;
  try {
    approver = await isPrincipal(env.approvers, ctx.userId, isMemberOfAny);
  } catch {
    return {
      allowed: false,
      reason: 'Could not check your user-group membership with Slack; try again shortly.',
    };
  }
  if (approver) return { allowed: true };
  const verb = ctx.decision === 'approve' ? 'approve' : 'reject';
  return {
    allowed: false,
    reason: `Only ${approvers} may ${verb} syncs of ${ctx.application} (${ctx.environment}).`,
  };
}
