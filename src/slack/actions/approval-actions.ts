/**
 * The Approve / Reject buttons' Bolt listeners (through durableClick). They ack at once (Slack wants the HTTP
 * answer within 3 s), then hand the click to the approval flow with the payload's `user.id` as the actor — never anything from the
 * button's value — and the clicked message's channel and ts (`container`), which must match the request.
 */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import {
  APPROVE_ACTION_ID,
  type ApprovalFlow,
  type Decision,
  REJECT_ACTION_ID,
  VIEW_DIFF_ACTION_ID,
} from '../../environments/index.js';
import type { DurableWrites } from '../../queue/index.js';
import { clickedMessage } from '../slack-payloads.js';
import { durableClick } from './durable-click.js';
import { viewDiffAction } from './view-diff-action.js';

export interface ApprovalActionsDeps {
  approvals: Pick<ApprovalFlow, 'decide'> & Partial<Pick<ApprovalFlow, 'requestDiff'>>;
  /** The bot's Redis writers: a decision is shown only once they are on the replicas (durable-click.ts). */
  durable?: DurableWrites;
  /** Errors of the flow (Slack or Redis down); default: rethrown to Bolt's error handler. */
  onError?(error: unknown): void;
  /** Where a View diff that could not share its whole diff as a file says so. */
  logger?: { warn(fields: Record<string, unknown>, message: string): void };
}

/**
 * Register the `wavesync_approve`, `wavesync_reject` and `wavesync_view_diff` action listeners on `app`; returns
 * the action ids registered.
 */
export function registerApprovalActions(app: App, deps: ApprovalActionsDeps): string[] {
  const options = {
    ...(deps.durable ? { durable: deps.durable } : {}),
    ...(deps.onError ? { onError: deps.onError } : {}),
  };
  const listener = (decision: Decision) =>
    durableClick(options, async ({ body, action }) => {
      const { channel, ts: messageTs } = clickedMessage(body);
      await deps.approvals.decide({
        decision,
        value: action.value,
        userId: body.user.id,
        channel,
        messageTs,
      });
    });
  app.action<BlockAction<ButtonAction>>(
    { type: 'block_actions', action_id: APPROVE_ACTION_ID },
    listener('approve'),
  );
  app.action<BlockAction<ButtonAction>>(
    { type: 'block_actions', action_id: REJECT_ACTION_ID },
    listener('reject'),
  );
  const requestDiff = deps.approvals.requestDiff;
  if (!requestDiff) return [APPROVE_ACTION_ID, REJECT_ACTION_ID];
  app.action<BlockAction<ButtonAction>>(
    { type: 'block_actions', action_id: VIEW_DIFF_ACTION_ID },
    durableClick(options, ({ body, action, client }) =>
      viewDiffAction({
        body,
        action,
        client,
        requestDiff,
        ...(deps.logger ? { logger: deps.logger } : {}),
      }),
    ),
  );
  return [APPROVE_ACTION_ID, REJECT_ACTION_ID, VIEW_DIFF_ACTION_ID];
}
