/**
 * authorizeDecision — may the user who clicked approve or reject this request? The user is the Slack payload's
 * `user.id` only (never anything carried in the button's value). Approve: whoever the `approve` permission allows
 * (authorizeAction; default the environment's approvers: listed, or a member of a listed user group), and not the
 * requester unless `allowSelfApproval`. Reject: an approver, or the
 * requester withdrawing their own request. Distinctness of approvals is enforced atomically by the store.
 */
import type { EnvironmentSettings } from '../../settings/index.js';
import { authorizeAction, grantsFor, type IsMemberOfAny } from '../permissions.js';
import { describePrincipals } from '../principal-mentions.js';

export type Decision = 'approve' | 'reject';

export interface DecisionContext {
  decision: Decision;
  /** From the Slack payload (`body.user.id`). */
  userId: string;
  requesterId: string;
  application: string;
  environment: string;
  /** Channel of the clicked message (for `approve` grants limited to channels). */
  channel?: string;
  /** What was requested, for the self-approval refusal (default `sync`). */
  what?: string;
}

export type DecisionAuthorization = { allowed: true } | { allowed: false; reason: string };

export async function authorizeDecision(
  env: EnvironmentSettings,
  ctx: DecisionContext,
  isMemberOfAny: IsMemberOfAny,
): Promise<DecisionAuthorization> {
  const isRequester = ctx.userId === ctx.requesterId;
  if (ctx.decision === 'reject' && isRequester) return { allowed: true };
  const permitted = await authorizeAction(
    { name: ctx.environment, settings: env },
    { action: 'approve', application: ctx.application, userId: ctx.userId, channel: ctx.channel ?? '' },
    isMemberOfAny,
  );
  if (ctx.decision === 'approve' && isRequester && !env.allowSelfApproval) {
    const approvers = grantsFor({ name: ctx.environment, settings: env }, ctx.application, 'approve');
    const who = describePrincipals({
      users: approvers.flatMap((g) => g.users),
      groups: approvers.flatMap((g) => g.groups),
    });
    return {
      allowed: false,
      reason: `You requested this ${ctx.what ?? 'sync'}; someone else from ${who} must approve it.`,
    };
  }
  if (permitted.allowed) return { allowed: true };
  const reason =
    ctx.decision === 'reject'
      ? permitted.reason.replace('may approve syncs of', 'may reject syncs of')
      : permitted.reason;
  return { allowed: false, reason };
}
