/**
 * The approval message's View diff button: Slack's trigger_id is valid for 3 s and a diff (render, list, dry runs)
 * can take longer, so a "Computing…" modal is opened at once with the click's trigger_id, then replaced
 * (`views.update`) by the full diff — or by why it cannot be shown (the clicker may not dry-run the Application,
 * the cluster cannot be read). Who may see it is decided by the approval flow's `requestDiff` (the dry-run
 * permission), from the payload's user and channel; the button value only locates the request.
 *
 * A diff longer than a modal holds (100 blocks of 3,000 characters) is also shared whole, as a `.diff` file in the
 * approval message's thread (files.uploadV2: getUploadURLExternal, upload, completeUploadExternal), once per
 * message and diff; the modal shows what fits and links the file. The diff is the engine's masked one: no Secret
 * value is in it. If the upload fails the modal points to `wavesync diff` instead.
 */
import type { BlockAction, ButtonAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { reasonForPeople } from '../../domain/index.js';
import type { ApplicationDiff } from '../../engine/index.js';
import type { ApprovalFlow } from '../../environments/index.js';
import { section } from '../messages/block.js';
import { diffModal, diffModalView, diffTextLines } from '../messages/diff-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
import { clickedMessage } from '../slack-payloads.js';

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
  requestDiff: ApprovalFlow['requestDiff'];
  logger?: { warn(fields: Record<string, unknown>, message: string): void };
}): Promise<void> {
  const { body, action, client } = input;
  const { channel, ts: messageTs } = clickedMessage(body);
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
      reason: `Could not compute the diff: ${escapeMrkdwn(reasonForPeople(error))}`,
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
    const diff = result.preview.diff;
    const modal = diffModal(diff, note);
    view = modal.view;
    if (modal.hiddenLines > 0) {
      const link = await shareFullDiff(client, diff, { channel, threadTs: messageTs }).catch(
        (error: unknown) => {
          input.logger?.warn({ err: error, application: diff.application }, 'could not share the full diff');
          return undefined;
        },
      );
      if (link) view = diffModalView(diff, note, link);
    }
  }
  await client.views.update({ view_id: viewId, view });
}

/** Files already shared, by `channel/thread/fingerprint` → `<permalink|name>` (bounded: the oldest go first). */
const shared = new Map<string, Promise<string>>();
const MAX_SHARED = 200;

/**
 * The whole diff of `diff` as a file in the thread `at` (files.uploadV2), once per thread and diff fingerprint;
 * resolves with a mrkdwn link to it. @throws the Web API's error (a failed share is forgotten, so a later click
 * tries again).
 */
function shareFullDiff(
  client: WebClient,
  diff: ApplicationDiff,
  at: { channel: string; threadTs: string },
): Promise<string> {
  const key = `${at.channel}/${at.threadTs}/${diff.fingerprint}`;
  let link = shared.get(key);
  if (link === undefined) {
    link = upload(client, diff, at);
    link.catch(() => shared.delete(key));
    shared.set(key, link);
    if (shared.size > MAX_SHARED) shared.delete(shared.keys().next().value as string);
  }
  return link;
}

async function upload(client: WebClient, diff: ApplicationDiff, at: { channel: string; threadTs: string }) {
  const lines = diffTextLines(diff);
  const filename = `${diff.application}-${diff.fingerprint.slice(0, 8)}.diff`;
  const result = await client.filesUploadV2({
    channel_id: at.channel,
    thread_ts: at.threadTs,
    filename,
    title: `Live diff of ${diff.application}`,
    content: `${lines.join('\n')}\n`,
    initial_comment: `The whole live diff of *${escapeMrkdwn(diff.application)}* (${lines.length} lines), too long for the View diff window.`,
  });
  const file = (result.files as { files?: { permalink?: string }[] }[] | undefined)?.[0]?.files?.[0];
  if (!file?.permalink) throw new Error('files.completeUploadExternal returned no permalink');
  return `<${file.permalink}|${escapeMrkdwn(filename)}>`;
}
