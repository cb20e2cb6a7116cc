/**
 * The header's Cancel button (`wavesync_cancel`, value = job id). Identity and channel come from the signed
 * payload (`user`, `channel`/`container`), never from the button value; the value only names the job, and the
 * `cancel` permission is checked for that job's Application and requester (cancelSync), then the clicked message
 * must be that job's header (a Cancel click from any other message is refused as stale).
 */
import type { BlockAction, ButtonAction, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { cancelSync } from '../commands/cancel-sync.js';
import { ephemeral, type SlackAppDeps } from '../commands/command-context.js';
import { queueUnavailable } from '../commands/queue-unavailable.js';
import { textMessage } from '../messages/block.js';
import { clickedMessage } from '../slack-payloads.js';

export async function cancelAction(args: {
  body: BlockAction;
  action: ButtonAction;
  respond: RespondFn;
  client: WebClient;
  deps: SlackAppDeps;
}): Promise<void> {
  const { body, action, respond, client, deps } = args;
  const reply = (text: string) => respond({ ...ephemeral(textMessage(text)), replace_original: false });
  try {
    const job = action.value ? await deps.queue.jobStatus(action.value) : undefined;
    if (!job) return void (await reply('That sync is no longer known to the queue.'));
    // Nothing about the job (whether it ended, how) is said before cancelSync has checked the clicker may cancel it.
    const by = { userId: body.user.id, userName: body.user.username ?? body.user.name ?? body.user.id };
    const clicked = clickedMessage(body);
    await cancelSync(deps, client, respond, {
      application: job.application,
      job,
      by,
      channel: clicked.channel,
      clicked,
    });
  } catch (err) {
    await queueUnavailable({ respond, deps }, err);
  }
}
