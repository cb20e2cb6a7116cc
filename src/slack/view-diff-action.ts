/**
 * The approval message's View diff button: Slack's trigger_id is valid for 3 s and a diff (render, list, dry runs)
 * can take longer, so a "Computing…" modal is opened at once with the click's trigger_id, then replaced
 * (`views.update`) by the full diff — or by why it cannot be shown (the clicker may not dry-run the Application,
 * the cluster cannot be read). Who may see it is decided by the approval flow's `requestDiff` (the dry-run
 * permission), from the payload's user and channel; the button value only locates the request.
 */
import type { BlockAction, ButtonAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Approvals } from '../approvals/index.js';
import { section } from './messages/block.js';
import { diffModalView } from './messages/diff-blocks.js';
import { escapeMrkdwn } from './messages/format.js';

const closeText = { type: 'plain_text' as const, text: 'Close' };

function messageView(title: string, text: string) {
  return {
    type: 'modal' as const,
    title: { type: 'plain_text' as const, text: title },
    close: closeText,
    blocks: [section(text)],
  };
}

export async function viewDiffAction(input: {
  body: BlockAction;
  action: ButtonAction;
  client: WebClient;
  requestDiff: Approvals['requestDiff'];
}): Promise<void> {
  const { body, action, client } = input;
  const channel = body.container?.channel_id ?? body.channel?.id;
  if (!channel || !body.trigger_id) return;
  const opened = await client.views.open({
    trigger_id: body.trigger_id,
    view: messageView('Live diff', '⏳ Comparing the manifests with the cluster…'),
  });
  const viewId = opened.view?.id;
  if (!viewId) return;
  const result = await input
    .requestDiff({
      value: action.value,
      initiator: { userId: body.user.id, userName: body.user.name ?? body.user.id },
      channel,
    })
    .catch((error: unknown) => ({
      allowed: false as const,
      reason: `Could not compute the diff: ${escapeMrkdwn(error instanceof Error ? error.message : String(error))}`,
    }));
  let view: ReturnType<typeof messageView> | ReturnType<typeof diffModalView>;
  // A refusal's reason is our own mrkdwn (mentions of who may, the channel): shown as written, not escaped.
  if (!result.allowed) view = messageView('Live diff', result.reason);
  else if (!result.preview.diff) {
    view = messageView(
      'Live diff',
      `Live diff not available: ${escapeMrkdwn(result.preview.liveError ?? 'no cluster')}`,
    );
  } else {
    const note = result.changedSinceRequest
      ? '⚠️ The live state or the manifests changed since the request: this is the diff now, not the one on the message. Approving now is refused; request the sync again.'
      : undefined;
    view = diffModalView(result.preview.diff, note);
  }
  await client.views.update({ view_id: viewId, view });
}
