/**
 * The Slack side of the one authorization (ApprovalFlow.authorize → authorizeAction, src/environments/permissions.ts):
 * every command and button asks here, with the user id and channel of the signed payload, before it changes
 * anything. A refusal is answered to that user only (ephemeral), never posted in the channel. Without an approval
 * flow (no `environments:` in wavesync.yaml) there are no rules and everything is allowed.
 */
import type { RespondFn } from '@slack/bolt';
import type { ActionContext, Authorization } from '../../environments/index.js';
import { textMessage } from '../messages/block.js';
import { ephemeral, type SlackAppDeps } from './command-context.js';

/** Ask the approval flow; allowed when approvals are not configured. Lookup errors refuse (fail closed). */
export async function authorizationOf(
  deps: Pick<SlackAppDeps, 'approvalFlow' | 'logger'>,
  ctx: ActionContext,
): Promise<Authorization> {
  const flow = deps.approvalFlow;
  if (!flow) return { allowed: true };
  try {
    return await flow.authorize(ctx);
  } catch (err) {
    deps.logger?.warn({ err, action: ctx.action, application: ctx.application }, 'authorization failed');
    return {
      allowed: false,
      code: 'membership_unknown',
      reason: 'I could not check your permissions just now, so nothing was done. Try again in a minute.',
    };
  }
}

/**
 * True when `ctx` is allowed; otherwise tells the user why (ephemeral, `replace_original: false` so a button's
 * message stays) and returns false.
 */
export async function permitted(
  deps: Pick<SlackAppDeps, 'approvalFlow' | 'logger'>,
  ctx: ActionContext,
  respond: RespondFn,
): Promise<boolean> {
  const decision = await authorizationOf(deps, ctx);
  if (decision.allowed) return true;
  deps.logger?.info(
    { action: ctx.action, application: ctx.application, userId: ctx.userId, channel: ctx.channel },
    'refused',
  );
  await respond({ ...ephemeral(textMessage(`🚫 ${decision.reason}`)), replace_original: false });
  return false;
}
