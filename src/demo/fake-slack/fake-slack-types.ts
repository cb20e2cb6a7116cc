/** What the fake Slack records and keeps, and how it is started. */
import type { FakeSocketModeOptions } from './fake-socket-mode.js';

export interface RecordedCall {
  method: string;
  /** Arguments from the form or JSON body; `blocks`/`attachments` JSON-decoded. */
  args: Record<string, unknown>;
  /** ms since epoch when received. */
  at: number;
  status: 200 | 429 | 500;
  response: Record<string, unknown>;
}

export interface ResponseUrlPost {
  id: string;
  body: Record<string, unknown>;
  at: number;
}

export interface FakeMessage {
  channel: string;
  ts: string;
  text: string;
  blocks: unknown[];
  threadTs?: string;
  broadcast: boolean;
  /** How many times chat.update changed it. */
  updates: number;
  /** `metadata` as posted (`{ event_type, event_payload }`), returned by conversations.history with include_all_metadata. */
  metadata?: unknown;
}

interface FakeUser {
  id: string;
  name: string;
  realName?: string;
  isAdmin?: boolean;
  isBot?: boolean;
}

export interface FakeSlackOptions {
  /** Token the fake accepts; other tokens get `invalid_auth`. Default `xoxb-test-token`. */
  botToken?: string;
  /** Sustained chat.postMessage rate per channel: one per this many ms. Default 1000 (Slack's ~1/s). */
  postIntervalMs?: number;
  /** Posts per channel allowed in a burst before 429. Default 3. */
  burst?: number;
  users?: FakeUser[];
  /** usergroup id → member user ids */
  usergroups?: Record<string, string[]>;
  /** channel id → info; unknown channels are treated as public channels the bot is in. */
  channels?: Record<string, { name: string; isPrivate?: boolean }>;
  /** Serve Socket Mode too (`apps.connections.open` + the WebSocket); `true` for the defaults. */
  socketMode?: FakeSocketModeOptions | boolean;
}
