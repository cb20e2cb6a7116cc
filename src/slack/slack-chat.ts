/**
 * The thread's chat port (src/thread ChatTransport) over Slack's Web API: chat.postMessage / chat.update /
 * chat.delete, conversations.replies and conversations.history with message metadata (the port's labels), Block Kit
 * text notes, and the packing of replies within Slack's limits (messages/coalesce-messages.ts). Web API errors
 * become the port's ChatError: a 429 is `rate-limited` for its Retry-After (at least 1 s), a request or HTTP error
 * (network, timeout, 5xx) `unreachable`, a platform error (`{ok:false}`) `refused` with Slack's `error`.
 * The client should reject rate-limited calls (createSlackWebClient) so the thread's pacer decides when to retry.
 */
import {
  type ChatPostMessageArguments,
  ErrorCode,
  type WebAPICallError,
  type WebClient,
} from '@slack/web-api';
import {
  ChatError,
  type ChatFailure,
  type ChatMessage,
  type ChatTransport,
  type LabelledMessage,
  type MessageLabel,
} from '../thread/index.js';
import { type SlackMessage, textMessage } from './messages/block.js';
import { coalesceKeyed } from './messages/coalesce-messages.js';

/** Replies read per conversations.replies page; channel messages read by one conversations.history. */
const PAGE_LIMIT = 200;

/** The chat port over `client`. */
export function slackChat(client: WebClient): ChatTransport {
  return {
    async post(channel, message, options = {}) {
      const { threadTs, broadcast, label } = options;
      const args = {
        channel,
        text: message.text,
        blocks: blocksOf(message),
        ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
        ...(broadcast === undefined ? {} : { reply_broadcast: broadcast }),
        ...(label ? { metadata: { event_type: label.kind, event_payload: label.fields } } : {}),
      };
      // Slack's argument types tell a thread reply from a broadcast one by literal types; built here from options.
      const answer = await call(() => client.chat.postMessage(args as ChatPostMessageArguments));
      return answer.ts!;
    },
    async update(channel, ts, message) {
      await call(() => client.chat.update({ channel, ts, text: message.text, blocks: blocksOf(message) }));
    },
    async remove(channel, ts) {
      await call(() => client.chat.delete({ channel, ts }));
    },
    async replies(channel, threadTs, next) {
      const answer = await call(() =>
        client.conversations.replies({
          channel,
          ts: threadTs,
          include_all_metadata: true,
          limit: PAGE_LIMIT,
          ...(next ? { cursor: next } : {}),
        }),
      );
      const cursor = answer.response_metadata?.next_cursor;
      return {
        messages: labelled(answer.messages ?? []),
        ...(answer.has_more && cursor ? { next: cursor } : {}),
      };
    },
    async recent(channel, sinceSeconds) {
      const answer = await call(() =>
        client.conversations.history({
          channel,
          oldest: String(sinceSeconds),
          include_all_metadata: true,
          limit: PAGE_LIMIT,
        }),
      );
      return labelled(answer.messages ?? []);
    },
    note: (text) => textMessage(text),
    pack: (messages) =>
      coalesceKeyed(messages.map((m) => ({ message: slackMessage(m.message), keys: m.keys }))),
  };
}

/** The thread carries this adapter's own messages (built by messages/): Block Kit blocks. */
function slackMessage(message: ChatMessage): SlackMessage {
  return message as SlackMessage;
}

function blocksOf(message: ChatMessage): SlackMessage['blocks'] {
  return slackMessage(message).blocks;
}

/** The ts and metadata (as a label) of Slack messages. */
function labelled(
  messages: readonly { ts?: string; metadata?: { event_type?: string; event_payload?: unknown } }[],
): LabelledMessage[] {
  return messages.flatMap((m) => (m.ts ? [{ ts: m.ts, ...labelOf(m.metadata) }] : []));
}

function labelOf(meta: { event_type?: string; event_payload?: unknown } | undefined): {
  label?: MessageLabel;
} {
  if (!meta?.event_type) return {};
  const fields: Record<string, string> = {};
  const payload = (meta.event_payload ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(payload)) if (value !== undefined) fields[name] = String(value);
  return { label: { kind: meta.event_type, fields } };
}

/** Run a Web API call; its Slack errors rejected as the port's ChatError, any other error as it is. */
async function call<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    const e = err as Partial<WebAPICallError> & { retryAfter?: number; data?: { error?: string } };
    const failure = failureOf(e);
    if (!failure) throw err;
    throw new ChatError(failure, e.data?.error ?? (err as Error).message, { cause: err });
  }
}

function failureOf(e: { code?: string; retryAfter?: number }): ChatFailure | undefined {
  switch (e.code) {
    case ErrorCode.RateLimitedError:
      return { kind: 'rate-limited', retryAfterMs: Math.max(1, e.retryAfter ?? 1) * 1000 };
    case ErrorCode.RequestError:
    case ErrorCode.HTTPError:
      return { kind: 'unreachable' };
    case ErrorCode.PlatformError:
      return { kind: 'refused' };
    default:
      return undefined;
  }
}
