/**
 * A sync's header posted through the thread's paced, patient header delivery (src/thread deliverSyncHeader: headers
 * before thread lines, Retry-After honoured, outages retried, a lost answer looked up by its client key) with this
 * bot's Web API client; only Slack's own refusal (`{ok:false}`: not in the channel, archived, …) fails, with a
 * reason a person can act on.
 */
import type { WebClient } from '@slack/web-api';
import {
  type ChannelPacer,
  type DeliveryLogger,
  deliverSyncHeader,
  findHeaderByKey as findLabelledHeader,
} from '../../thread/index.js';
import type { SlackMessage } from '../messages/block.js';
import { slackChat } from '../slack-chat.js';

export { HEADER_EVENT_TYPE } from '../../thread/index.js';

export interface HeaderDelivery {
  /** A client that rejects rate-limited calls (createSlackWebClient), so the pacer decides when to try again. */
  client: WebClient;
  /** Shared by the process's (or, through Redis, every process's) posts. */
  pacer: ChannelPacer;
  logger?: DeliveryLogger;
  /** How long a header is retried through a Slack outage (ms); default the thread delivery's 10 min. */
  retentionMs?: number;
}

export type HeaderPosted = { ok: true; ts: string } | { ok: false; reason: string; hint?: string };

/** Post `message` in `channel` as a sync's header; `commandId` is its client key (a recovery finds it by it). */
export async function postSyncHeader(
  d: HeaderDelivery,
  channel: string,
  message: SlackMessage,
  commandId?: string,
): Promise<HeaderPosted> {
  const { client, ...delivery } = d;
  const posted = await deliverSyncHeader(
    { ...delivery, chat: slackChat(client) },
    channel,
    message,
    commandId,
  );
  return posted.ok ? posted : { ok: false, ...headerProblem(posted.error) };
}

/** What a person reads when Slack refused the header: Slack's answer in words, never a client's raw error. */
function headerProblem(error: string | undefined): { reason: string; hint?: string } {
  const invite = ' Invite me with `/invite @wavesync` and try again.';
  switch (error) {
    case 'not_in_channel':
    case 'channel_not_found':
      return { reason: 'I am not a member of this channel', hint: invite };
    case 'is_archived':
      return { reason: 'this channel is archived' };
    case 'restricted_action':
    case 'restricted_action_read_only_channel':
    case 'restricted_action_thread_only_channel':
    case 'restricted_action_non_threadable_channel':
      return { reason: "this channel's settings do not let me post here" };
    case 'msg_blocks_too_long':
    case 'invalid_blocks':
    case 'too_many_attachments':
      return { reason: 'Slack refused the header I built (a wavesync bug; the logs have the details)' };
    default:
      return { reason: 'Slack did not take the message (the logs have the details)' };
  }
}

/**
 * The header posted for command `id` (by a bot that died before recording it, or a try whose answer was lost):
 * the channel's messages since `since` (ms), matched by `metadata.event_payload.command_id` (needs
 * channels:history / groups:history). Undefined when none is found or the lookup fails (then a header is posted).
 */
export function findHeaderByKey(
  client: WebClient,
  channel: string,
  id: string,
  since: number,
): Promise<{ channel: string; ts: string } | undefined> {
  return findLabelledHeader(slackChat(client), channel, id, since);
}
