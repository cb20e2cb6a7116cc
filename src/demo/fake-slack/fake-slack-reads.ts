/**
 * The fake Slack's read methods, answered from what it holds: users.info, usergroups.users.list,
 * conversations.info, conversations.history and conversations.replies (Slack's shapes and errors).
 */

import type { Args } from './fake-slack-http.js';
import type { FakeMessage, FakeSlackOptions } from './fake-slack-types.js';

/** The messages the fake holds, as FakeSlackApi shows them to tests. */
export interface MessageLog {
  message(channel: string, ts: string): FakeMessage | undefined;
  thread(channel: string, threadTs: string): FakeMessage[];
  channelMessages(channel: string): FakeMessage[];
}

export function userInfo(options: FakeSlackOptions, a: Args): Record<string, unknown> {
  const u = options.users?.find((x) => x.id === a.user);
  if (!u) return { ok: false, error: 'user_not_found' };
  return {
    ok: true,
    user: {
      id: u.id,
      name: u.name,
      real_name: u.realName ?? u.name,
      is_admin: u.isAdmin ?? false,
      is_bot: u.isBot ?? false,
      deleted: false,
      profile: { display_name: u.name },
    },
  };
}

export function usergroupUsers(options: FakeSlackOptions, a: Args): Record<string, unknown> {
  const users = options.usergroups?.[String(a.usergroup)];
  return users ? { ok: true, users } : { ok: false, error: 'no_such_subteam' };
}

/** Unknown channels are public channels the bot is in. */
export function conversationInfo(options: FakeSlackOptions, a: Args): Record<string, unknown> {
  const id = String(a.channel ?? '');
  if (!id) return { ok: false, error: 'channel_not_found' };
  const c = options.channels?.[id] ?? { name: id.toLowerCase() };
  return { ok: true, channel: { id, name: c.name, is_private: c.isPrivate ?? false, is_member: true } };
}

/** Top-level messages of a channel, newest first, at or after `oldest`; `metadata` only with include_all_metadata. */
export function conversationHistory(log: MessageLog, a: Args): Record<string, unknown> {
  const channel = String(a.channel ?? '');
  if (!channel) return { ok: false, error: 'channel_not_found' };
  const oldest = Number(a.oldest ?? 0);
  const withMetadata = a.include_all_metadata === true || a.include_all_metadata === 'true';
  const limit = Math.min(999, Number(a.limit ?? 100));
  const messages = log
    .channelMessages(channel)
    .filter((m) => !m.threadTs && Number(m.ts) >= oldest)
    .reverse()
    .slice(0, limit)
    .map((m) => ({
      type: 'message',
      ts: m.ts,
      text: m.text,
      ...(withMetadata && m.metadata !== undefined ? { metadata: m.metadata } : {}),
    }));
  return { ok: true, messages, has_more: false };
}

/**
 * A thread, oldest first, the parent included (Slack's shape: `messages`, `has_more`,
 * `response_metadata.next_cursor`); `metadata` only with include_all_metadata; `thread_not_found` for an unknown ts.
 */
export function conversationReplies(log: MessageLog, a: Args): Record<string, unknown> {
  const channel = String(a.channel ?? '');
  const ts = String(a.ts ?? '');
  if (!channel) return { ok: false, error: 'channel_not_found' };
  const parent = log.message(channel, ts);
  if (!parent) return { ok: false, error: 'thread_not_found' };
  const withMetadata = a.include_all_metadata === true || a.include_all_metadata === 'true';
  const limit = Math.max(1, Math.min(1000, Number(a.limit ?? 1000)));
  const start = Number(a.cursor ?? 0) || 0;
  const all = [parent, ...log.thread(channel, ts)];
  const page = all.slice(start, start + limit).map((m) => ({
    type: 'message',
    ts: m.ts,
    thread_ts: ts,
    text: m.text,
    bot_id: 'B0BOT',
    ...(withMetadata && m.metadata !== undefined ? { metadata: m.metadata } : {}),
  }));
  const more = start + limit < all.length;
  return {
    ok: true,
    messages: page,
    has_more: more,
    ...(more ? { response_metadata: { next_cursor: String(start + limit) } } : {}),
  };
}
