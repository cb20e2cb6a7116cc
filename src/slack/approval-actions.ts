/**
 * The Approve / Reject buttons' Bolt listeners. They ack at once (Slack wants the HTTP answer within 3 s), then
 * hand the click to the approval flow with the payload's `user.id` as the actor — never anything from the
 * button's value — and the clicked message's channel and ts (`container`), which must match the request.
 */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import {
  APPROVE_ACTION_ID,
  type Approvals,
  type Decision,
  REJECT_ACTION_ID,
  VIEW_DIFF_ACTION_ID,
} from '../approvals/index.js';
import { viewDiffAction } from './view-diff-action.js';

export interface ApprovalActionsDeps {
  approvals: Pick<Approvals, 'decide'> & Partial<Pick<Approvals, 'requestDiff'>>;
  /** Errors of the flow (Slack or Redis down); default: rethrown to Bolt's error handler. */
  onError?(error: unknown): void;
  /** Where a View diff that could not share its whole diff as a file says so. */
  logger?: { warn(fields: Record<string, unknown>, message: string): void };
}

/** Register the `wavesync_approve`, `wavesync_reject` and `wavesync_view_diff` action listeners on `app`. */
export function registerApprovalActions(app: App, deps: ApprovalActionsDeps): void {
  const listener =
    (decision: Decision) =>
    async ({ ack, body, action }: { ack: () => Promise<void>; body: BlockAction; action: ButtonAction }) => {
      await ack();
      const channel = body.container?.channel_id ?? body.channel?.id;
      const messageTs = body.container?.message_ts ?? body.message?.ts;
      if (!channel || !messageTs) return;
      try {
        await deps.approvals.decide({
          decision,
          value: action.value,
          userId: body.user.id,
          channel,
          messageTs,
        });
      } catch (error) {
        if (!deps.onError) throw error;
        deps.onError(error);
      }
    };
  app.action<BlockAction<ButtonAction>>(
    { type: 'block_actions', action_id: APPROVE_ACTION_ID },
    listener('approve'),
  );
  app.action<BlockAction<ButtonAction>>(
    { type: 'block_actions', action_id: REJECT_ACTION_ID },
    listener('reject'),
  );
  const requestDiff = deps.approvals.requestDiff;
  if (requestDiff) {
    app.action<BlockAction<ButtonAction>>(
      { type: 'block_actions', action_id: VIEW_DIFF_ACTION_ID },
      async ({ ack, body, action, client }) => {
        await ack();
        try {
          await viewDiffAction({
            body,
            action,
            client,
            requestDiff,
            ...(deps.logger ? { logger: deps.logger } : {}),
          });
        } catch (error) {
          if (!deps.onError) throw error;
          deps.onError(error);
        }
      },
    );
  }
}
