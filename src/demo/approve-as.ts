/**
 * The demo's second user: waits for the approval request in a channel (a message with an Approve button) and
 * clicks Approve as that user, as Slack would send it: signed to the bot's interactivity endpoint, or over Socket Mode.
 */
import { APPROVE_ACTION_ID } from '../environments/index.js';
import type { FakeSlackApi } from './fake-slack/fake-slack-api.js';
import type { Delivery, SlackSender } from './fake-slack/slack-client.js';

interface ButtonLike {
  action_id?: string;
  value?: string;
}

/** The approval message of `channel` and its Approve button's value, once posted (or updated into one). */
function approvalRequest(slack: FakeSlackApi, channel: string): { ts: string; value: string } | undefined {
  for (const message of slack.channelMessages(channel)) {
    for (const block of message.blocks as { type?: string; elements?: ButtonLike[] }[]) {
      const approve =
        block.type === 'actions' ? block.elements?.find((e) => e.action_id === APPROVE_ACTION_ID) : undefined;
      if (approve?.value) return { ts: message.ts, value: approve.value };
    }
  }
  return undefined;
}

/** Wait (up to `timeoutMs`) for the approval request in `channel`, then click Approve as `user`. */
export async function approveAs(
  slack: FakeSlackApi,
  client: SlackSender,
  input: {
    channel: string;
    user: { id: string; name: string };
    timeoutMs: number;
    /** Called with the approval message's blocks before the click (the demo prints them). */
    onRequest?(blocks: unknown[]): void;
  },
): Promise<Delivery> {
  const request = await slack.waitFor(() => approvalRequest(slack, input.channel), input.timeoutMs);
  input.onRequest?.(slack.message(input.channel, request.ts)?.blocks ?? []);
  return client.sendBlockAction({
    actionId: APPROVE_ACTION_ID,
    value: request.value,
    userId: input.user.id,
    userName: input.user.name,
    channelId: input.channel,
    messageTs: request.ts,
    responseUrl: slack.responseUrl(input.channel),
  });
}
