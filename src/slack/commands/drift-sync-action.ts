/**
 * The drift notice's Sync button (`wavesync_drift_sync`, value = Application name): the same as the clicking user
 * typing `/sync <app>` in the notice's channel — the header is posted there, the environment's request rules and
 * approval apply, and the request key is the one `/sync <app>` from that person in that channel has, so double
 * clicks (and a click plus the command) queue one sync. Identity comes from the signed payload's `user`.
 */
import type { BlockAction, ButtonAction, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { textMessage } from '../messages/block.js';
import { escapeMrkdwn } from '../messages/format.js';
import { ephemeral, type SlackAppDeps } from './command-context.js';
import { parseSyncArgs } from './parse-sync-args.js';
import type { RecentRequests } from './recent-requests.js';
import { requestKeyOf } from './request-key.js';
import { acceptedText, alreadyRequested, startSync } from './start-sync-command.js';

export async function driftSyncAction(args: {
  body: BlockAction;
  action: ButtonAction;
  respond: RespondFn;
  client: WebClient;
  deps: SlackAppDeps;
  recent: RecentRequests;
}): Promise<void> {
  const { body, action, respond, deps, recent } = args;
  const reply = (message: ReturnType<typeof textMessage>) =>
    respond({ ...ephemeral(message), replace_original: false });
  const application = action.value ?? '';
  const channel = body.channel?.id ?? body.container?.channel_id;
  if (!channel || !deps.catalog.describe(application)) {
    return void (await reply(
      textMessage(`I no longer know an application named *${escapeMrkdwn(application)}*.`),
    ));
  }
  const parsed = parseSyncArgs([]);
  if (!parsed.ok) return;
  const requester = {
    team_id: body.team?.id ?? body.user.team_id ?? '',
    channel_id: channel,
    user_id: body.user.id,
  };
  const requestKey = requestKeyOf(requester, application, parsed.operation);
  if (recent.claim(requestKey)) return void (await reply(alreadyRequested(application)));
  await reply(textMessage(acceptedText(application, parsed.operation)));
  const initiator = { userId: body.user.id, userName: body.user.username ?? body.user.name ?? body.user.id };
  await startSync(
    { respond, client: args.client, deps, recent, channel },
    { application, operation: parsed.operation, initiator, requestKey },
  );
}
