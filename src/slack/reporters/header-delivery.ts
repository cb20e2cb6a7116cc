/**
 * A sync's header (the thread's root message) goes through the same paced, patient delivery as its thread lines:
 * it waits for the channel's slot (headers before thread lines, ./shared-channel-pacer.ts), a 429 waits Slack's
 * Retry-After and tries again, a network error or 5xx is retried through an outage (slack-delivery's retention),
 * and a try whose answer was lost is looked up by its client key (message metadata `command_id`) before posting
 * again, so a burst of `/sync` commands is delayed by Slack's pace, never refused by it. Only Slack's own refusal
 * (`{ok:false}`: not in the channel, archived, …) fails, with a reason a person can act on.
 */
import { ErrorCode, type WebClient } from '@slack/web-api';
import type { SlackMessage } from '../messages/block.js';
import type { ChannelPacer } from './channel-pacer.js';
import { type DeliveryLogger, deliver } from './slack-delivery.js';

/** `metadata.event_type` of a sync header (its `event_payload.command_id` is the command journal's id). */
export const HEADER_EVENT_TYPE = 'wavesync_sync_header';

export interface HeaderDelivery {
  /** A client that rejects rate-limited calls (createSlackWebClient), so the pacer decides when to try again. */
  client: WebClient;
  /** Shared by the process's (or, through Redis, every process's) posts. */
  pacer: ChannelPacer;
  logger?: DeliveryLogger;
  /** How long a header is retried through a Slack outage (ms); default slack-delivery's 10 min. */
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
  const since = Date.now();
  let uncertain = false;
  await d.pacer.acquireHeader(channel);
  const result = await deliver(
    async () => {
      if (uncertain && commandId) {
        const found = await findHeaderByKey(d.client, channel, commandId, since);
        if (found) return found.ts;
      }
      const posted = await d.client.chat
        .postMessage({
          channel,
          text: message.text,
          blocks: message.blocks,
          ...(commandId
            ? { metadata: { event_type: HEADER_EVENT_TYPE, event_payload: { command_id: commandId } } }
            : {}),
        })
        .catch((err: { code?: string }) => {
          // A 429 or a platform error is Slack's answer that nothing was stored; anything else may hide a post.
          if (err.code !== ErrorCode.RateLimitedError && err.code !== ErrorCode.PlatformError)
            uncertain = true;
          throw err;
        });
      return posted.ts!;
    },
    {
      channel,
      pacer: d.pacer,
      what: 'sync header',
      ...(d.logger ? { logger: d.logger } : {}),
      ...(d.retentionMs === undefined ? {} : { retentionMs: d.retentionMs }),
    },
  );
  if (result.ok && result.value) return { ok: true, ts: result.value };
  return { ok: false, ...headerProblem(result.error) };
}

/** What a person reads when Slack refused the header: Slack's answer in words, never a client's raw error. */
export function headerProblem(error: string | undefined): { reason: string; hint?: string } {
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
export async function findHeaderByKey(
  client: WebClient,
  channel: string,
  id: string,
  since: number,
): Promise<{ channel: string; ts: string } | undefined> {
  try {
    const history = await client.conversations.history({
      channel,
      oldest: String(Math.floor(since / 1000) - 5),
      include_all_metadata: true,
      limit: 200,
    });
    const found = history.messages?.find((m) => {
      const payload = (m as { metadata?: { event_type?: string; event_payload?: { command_id?: unknown } } })
        .metadata;
      return payload?.event_type === HEADER_EVENT_TYPE && payload.event_payload?.command_id === id;
    });
    return found?.ts ? { channel, ts: found.ts } : undefined;
  } catch {
    return undefined;
  }
}
