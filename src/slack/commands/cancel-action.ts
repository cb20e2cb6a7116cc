/**
 * The header's Cancel button (`wavesync_cancel`, value = job id). Identity comes from the signed payload's
 * `user`, never from the button value; the value only names the job.
 */
import type { BlockAction, ButtonAction, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { textMessage } from '../messages/block.js';
import { cancelSync } from './cancel-sync.js';
import { ephemeral, type SlackAppDeps } from './command-context.js';
import { queueUnavailable } from './queue-unavailable.js';

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
    if (job.state !== 'waiting' && job.state !== 'active')
      return void (await reply(`That sync already ended (${job.state}).`));
    const by = { userId: body.user.id, userName: body.user.username ?? body.user.name ?? body.user.id };
    const message = await cancelSync(deps, client, { application: job.application, by, jobId: job.jobId });
    await respond({ ...ephemeral(message), replace_original: false });
  } catch (err) {
    await queueUnavailable({ respond, deps }, err);
  }
}
