/**
 * The port the thread needs from a chat (src/slack/slack-chat.ts implements it with Slack's Web API): post a
 * message, in a thread or not, edit it, remove it, read the labels of a thread's or a channel's messages, and put
 * messages together within the chat's limits. A call the chat did not take rejects with a ChatError that says how
 * (rate limited and for how long, unreachable, or refused and why), so the thread's delivery policy (./delivery.ts)
 * decides what to do without knowing the chat's API.
 */

/** A message as the chat shows it: the thread carries it as it is (and stores it as JSON in its outbox). */
export interface ChatMessage {
  /** The plain-text fallback (notifications, screen readers). */
  text: string;
  /** The chat's own rich content (Block Kit blocks for Slack); opaque to the thread. */
  blocks: readonly object[];
}

/** A message with the stable keys of the thread lines it carries (see ThreadPoster). */
export interface KeyedMessage {
  message: ChatMessage;
  keys: readonly string[];
}

/**
 * A label the chat keeps with a message, invisible to people (Slack's message metadata): what kind of message it is
 * and a few string fields, so a message whose answer was lost can be found again by its client key.
 */
export interface MessageLabel {
  kind: string;
  fields: Readonly<Record<string, string>>;
}

/** A message read back from the chat: its id (Slack's ts) and its label, if it has one. */
export interface LabelledMessage {
  ts: string;
  label?: MessageLabel;
}

export interface ChatTransport {
  /**
   * Post `message` in `channel` — as a reply in thread `threadTs` when given, also shown in the channel when
   * `broadcast` — with `label` kept beside it. Resolves to the new message's id (ts).
   */
  post(
    channel: string,
    message: ChatMessage,
    options?: { threadTs?: string; broadcast?: boolean; label?: MessageLabel },
  ): Promise<string>;
  /** Replace message `ts` of `channel` with `message`. */
  update(channel: string, ts: string, message: ChatMessage): Promise<void>;
  /** Remove message `ts` of `channel`. */
  remove(channel: string, ts: string): Promise<void>;
  /** One page of the replies of thread `threadTs` (labels included); `next` reads the following page. */
  replies(
    channel: string,
    threadTs: string,
    next?: string,
  ): Promise<{ messages: LabelledMessage[]; next?: string }>;
  /** The channel's messages posted since `sinceSeconds` (epoch seconds), labels included (one page). */
  recent(channel: string, sinceSeconds: number): Promise<LabelledMessage[]>;
  /** A message of plain text (a note in a thread). */
  note(text: string): ChatMessage;
  /**
   * `messages` (in order) packed into the fewest messages the chat's limits allow, no content dropped; each
   * output carries the keys of the inputs whose content it completes.
   */
  pack(messages: readonly KeyedMessage[]): KeyedMessage[];
}

/** How a chat call was not taken. */
export type ChatFailure =
  /** The chat asks to wait `retryAfterMs` before calling again (Slack's 429 and Retry-After). */
  | { kind: 'rate-limited'; retryAfterMs: number }
  /** No answer, or the chat's server failed (network error, timeout, 5xx): the call may have been done. */
  | { kind: 'unreachable' }
  /** The chat answered no (Slack's `{ok: false, error}`): nothing was done, and trying again will not help. */
  | { kind: 'refused' };

/** A chat call that was not taken; `reason` is the chat's own word for it (Slack's `error`, or the message). */
export class ChatError extends Error {
  readonly failure: ChatFailure;
  readonly reason: string;

  constructor(failure: ChatFailure, reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = 'ChatError';
    this.failure = failure;
    this.reason = reason;
  }
}

/** Whether `error` is the chat's answer that nothing was stored (rate limited or refused). */
export function notStored(error: unknown): boolean {
  return error instanceof ChatError && error.failure.kind !== 'unreachable';
}
