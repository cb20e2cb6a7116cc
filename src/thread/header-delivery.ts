/**
 * A sync's header (the thread's root message) goes through the same paced, patient delivery as its thread lines:
 * it waits for the channel's slot (headers before thread lines, ./redis-channel-pacer.ts), a 429 waits Slack's
 * Retry-After and tries again, a network error or 5xx is retried through an outage (delivery's retention), and a
 * try whose answer was lost is looked up by its client key (the label's `command_id`) before posting again, so a
 * burst of `/sync` commands is delayed by Slack's pace, never refused by it. Only the chat's own refusal (Slack's
 * `{ok:false}`: not in the channel, archived, …) fails, with the chat's reason.
 */
import type { ChannelPacer } from './channel-pacer.js';
import type { ChatMessage, ChatTransport } from './chat.js';
import { notStored } from './chat.js';
import { type DeliveryLogger, deliver } from './delivery.js';

/** The label kind (Slack's metadata `event_type`) of a sync header; its `command_id` is the command journal's id. */
export const HEADER_EVENT_TYPE = 'wavesync_sync_header';

export interface HeaderDelivery {
  /** A chat whose rate-limited calls are rejected (createSlackWebClient), so the pacer decides when to try again. */
  chat: ChatTransport;
  /** Shared by the process's (or, through Redis, every process's) posts. */
  pacer: ChannelPacer;
  logger?: DeliveryLogger;
  /** How long a header is retried through a chat outage (ms); default delivery's 10 min. */
  retentionMs?: number;
}

/** The posted header's ts, or the chat's reason for not taking it (Slack's `error`, or the call's message). */
export type HeaderDelivered = { ok: true; ts: string } | { ok: false; error: string | undefined };

/** Post `message` in `channel` as a sync's header; `commandId` is its client key (a recovery finds it by it). */
export async function deliverSyncHeader(
  d: HeaderDelivery,
  channel: string,
  message: ChatMessage,
  commandId?: string,
): Promise<HeaderDelivered> {
  const since = Date.now();
  let uncertain = false;
  await d.pacer.acquireHeader(channel);
  const label = commandId ? { kind: HEADER_EVENT_TYPE, fields: { command_id: commandId } } : undefined;
  const result = await deliver(
    async () => {
      if (uncertain && commandId) {
        const found = await findHeaderByKey(d.chat, channel, commandId, since);
        if (found) return found.ts;
      }
      return d.chat.post(channel, message, label ? { label } : {}).catch((err: unknown) => {
        // Rate limited or refused is the chat's answer that nothing was stored; anything else may hide a post.
        if (!notStored(err)) uncertain = true;
        throw err;
      });
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
  return { ok: false, error: result.error };
}

/**
 * The header posted for command `id` (by a bot that died before recording it, or a try whose answer was lost):
 * the channel's messages since `since` (ms), matched by their label's `command_id` (Slack needs channels:history /
 * groups:history). Undefined when none is found or the lookup fails (then a header is posted).
 */
export async function findHeaderByKey(
  chat: ChatTransport,
  channel: string,
  id: string,
  since: number,
): Promise<{ channel: string; ts: string } | undefined> {
  try {
    const messages = await chat.recent(channel, Math.floor(since / 1000) - 5);
    const found = messages.find(
      (m) => m.label?.kind === HEADER_EVENT_TYPE && m.label.fields.command_id === id,
    );
    return found ? { channel, ts: found.ts } : undefined;
  } catch {
    return undefined;
  }
}
