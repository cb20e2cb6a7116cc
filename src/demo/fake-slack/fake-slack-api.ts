/**
 * A local fake of Slack's Web API for tests and the demo: an HTTP server on 127.0.0.1 (port 0) that answers
 * auth.test, chat.postMessage, chat.update, chat.postEphemeral, chat.getPermalink, users.info,
 * usergroups.users.list, conversations.info, views.open, views.update and files.uploadV2's three steps
 * (files.getUploadURLExternal, the POST of the bytes to the returned upload_url, files.completeUploadExternal) the way Slack does (HTTP 200 with `{ok:false,error}` for
 * platform errors, HTTP 429 + Retry-After for rate limits), enforces Slack's message limits, records every call
 * and keeps the resulting messages so tests can assert threads. It also receives `response_url` posts at
 * `/response/<id>`. With `socketMode`, it is also Slack's Socket Mode endpoint (`apps.connections.open` and the
 * WebSocket it hands out: FakeSocketMode).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChannelRateLimiter } from './channel-rate-limiter.js';
import { FakeSocketMode, type FakeSocketModeOptions } from './fake-socket-mode.js';
import { blockProblems, LIMITS, modalProblems } from './slack-block-rules.js';

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

/** A modal opened with views.open (and its latest views.update). */
export interface FakeView {
  id: string;
  triggerId: string;
  view: Record<string, unknown>;
  /** How many times views.update replaced it. */
  updates: number;
}

/** A file shared with files.uploadV2 (files.getUploadURLExternal → upload → files.completeUploadExternal). */
export interface FakeFile {
  id: string;
  filename: string;
  title: string;
  /** The uploaded bytes, as UTF-8. */
  content: string;
  channel?: string;
  threadTs?: string;
  permalink: string;
}

/** files.getUploadURLExternal: `length` is 1 byte to 1 GB; `alt_txt` at most 1,000 characters. */
export const FILE_LIMITS = { maxBytes: 1024 ** 3, maxAltText: 1000 } as const;

/** Slack's trigger_id is valid for 3 s after the interaction, once. */
export const TRIGGER_TTL_MS = 3000;

export interface FakeUser {
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

type Args = Record<string, unknown>;
type Handler = (args: Args) => Record<string, unknown>;

export class FakeSlackApi {
  readonly botToken: string;
  /** Slack's Socket Mode side, when started with `socketMode`. */
  readonly socketMode: FakeSocketMode | undefined;
  private readonly recorded: RecordedCall[] = [];
  private readonly responsePosts: ResponseUrlPost[] = [];
  private readonly messages = new Map<string, FakeMessage>();
  private readonly failures = new Map<string, string[]>();
  private readonly openViews = new Map<string, FakeView>();
  private readonly usedTriggers = new Set<string>();
  private readonly pendingFiles = new Map<string, { filename: string; length: number; bytes?: Buffer }>();
  private readonly sharedFiles: FakeFile[] = [];
  private readonly limiter: ChannelRateLimiter;
  private readonly handlers: Record<string, Handler>;
  private readonly server: Server;
  private readonly options: FakeSlackOptions;
  private seq = 0;
  private outageUntil = 0;
  private readonly stalls = new Map<string, number[]>();

  private constructor(server: Server, options: FakeSlackOptions) {
    this.server = server;
    this.options = options;
    this.botToken = options.botToken ?? 'xoxb-test-token';
    this.limiter = new ChannelRateLimiter(options.postIntervalMs ?? 1000, options.burst ?? 3);
    this.socketMode = options.socketMode
      ? new FakeSocketMode(options.socketMode === true ? {} : options.socketMode)
      : undefined;
    this.handlers = {
      'auth.test': () => ({
        ok: true,
        url: 'https://fake.slack.test/',
        team: 'Fake',
        user: 'wavesync',
        team_id: 'T0FAKE',
        user_id: 'U0BOT',
        bot_id: 'B0BOT',
      }),
      'chat.postMessage': (a) => this.postMessage(a),
      'chat.update': (a) => this.update(a),
      'chat.delete': (a) => this.deleteMessage(a),
      'chat.postEphemeral': (a) => this.postEphemeral(a),
      'chat.getPermalink': (a) => this.permalink(a),
      'users.info': (a) => this.userInfo(a),
      'usergroups.users.list': (a) => this.usergroupUsers(a),
      'conversations.info': (a) => this.conversationInfo(a),
      'conversations.history': (a) => this.conversationHistory(a),
      'conversations.replies': (a) => this.conversationReplies(a),
      'views.open': (a) => this.viewsOpen(a),
      'views.update': (a) => this.viewsUpdate(a),
      'files.getUploadURLExternal': (a) => this.getUploadUrl(a),
      'files.completeUploadExternal': (a) => this.completeUpload(a),
    };
  }

  /** Start on 127.0.0.1 with an ephemeral port. */
  static async start(options: FakeSlackOptions = {}): Promise<FakeSlackApi> {
    let fake: FakeSlackApi | undefined;
    const server = createServer((req, res) => void fake!.handle(req, res));
    fake = new FakeSlackApi(server, options);
    const socketMode = fake.socketMode;
    if (socketMode) server.on('upgrade', (req, socket, head) => socketMode.handleUpgrade(req, socket, head));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    socketMode?.attach(fake.url);
    return fake;
  }

  /** `http://127.0.0.1:PORT` */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Base URL for WebClient's `slackApiUrl`: `http://127.0.0.1:PORT/api/`. */
  get apiUrl(): string {
    return `${this.url}/api/`;
  }

  /** A response_url the fake records posts to. */
  responseUrl(id: string): string {
    return `${this.url}/response/${encodeURIComponent(id)}`;
  }

  /** Recorded Web API calls, optionally of one method, in arrival order (429s included). */
  calls(method?: string): RecordedCall[] {
    return this.recorded.filter((c) => method === undefined || c.method === method);
  }

  /** Recorded response_url posts, optionally for one id. */
  responseUrlPosts(id?: string): ResponseUrlPost[] {
    return this.responsePosts.filter((p) => id === undefined || p.id === id);
  }

  /** The current state of a message (after updates). */
  message(channel: string, ts: string): FakeMessage | undefined {
    return this.messages.get(`${channel}/${ts}`);
  }

  /** Replies in a thread, oldest first. */
  thread(channel: string, threadTs: string): FakeMessage[] {
    return [...this.messages.values()].filter((m) => m.channel === channel && m.threadTs === threadTs);
  }

  /** Top-level messages of a channel (thread roots and broadcast replies), oldest first. */
  channelMessages(channel: string): FakeMessage[] {
    return [...this.messages.values()].filter((m) => m.channel === channel && (!m.threadTs || m.broadcast));
  }

  /** Files shared with files.completeUploadExternal, in order. */
  files(): FakeFile[] {
    return [...this.sharedFiles];
  }

  /** Modals opened by views.open, in order (with their latest content). */
  views(): FakeView[] {
    return [...this.openViews.values()];
  }

  /** Change a user group's members (an admin editing @sre in Slack); usergroups.users.list answers with them. */
  setUsergroup(groupId: string, users: readonly string[]): void {
    this.options.usergroups = { ...this.options.usergroups, [groupId]: [...users] };
  }

  /** Make the next call(s) of `method` fail with Slack error `error` (queued, one per call). */
  failNext(method: string, error: string): void {
    this.failures.set(method, [...(this.failures.get(method) ?? []), error]);
  }

  /**
   * A Slack outage: every Web API call answers HTTP 500 (recorded with status 500, nothing done) for `ms` from now,
   * as Slack's edge does during an incident.
   */
  outage(ms: number): void {
    this.outageUntil = Date.now() + ms;
  }

  /**
   * The next call(s) of `method` are done (and recorded) but answered only after `ms` — a response lost to the
   * client's timeout, as when Slack's edge stalls after the message was stored. Queued, one per call.
   */
  stallNext(method: string, ms: number): void {
    this.stalls.set(method, [...(this.stalls.get(method) ?? []), ms]);
  }

  /** Resolve when `probe` returns a truthy value; reject after `timeoutMs`. Polls every 10 ms. */
  async waitFor<T>(probe: () => T | undefined | null | false, timeoutMs = 5000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = probe();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`waitFor timed out after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async close(): Promise<void> {
    await this.socketMode?.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.startsWith('/upload/') && req.method === 'POST')
      return this.receiveUpload(path.slice(8), req, res);
    const raw = await readBody(req);
    if (path.startsWith('/response/') && req.method === 'POST') {
      this.responsePosts.push({
        id: decodeURIComponent(path.slice(10)),
        body: parseBody(raw, req),
        at: Date.now(),
      });
      return void send(res, 200, { ok: true });
    }
    if (!path.startsWith('/api/')) return void send(res, 404, { ok: false, error: 'not_found' });
    const method = path.slice(5);
    const args = parseBody(raw, req);
    const at = Date.now();
    const channel = typeof args.channel === 'string' ? args.channel : '';
    if (at < this.outageUntil) {
      const response = { ok: false, error: 'internal_error' };
      this.recorded.push({ method, args, at, status: 500, response });
      return void send(res, 500, response);
    }
    if (method === 'chat.postMessage' && channel) {
      const wait = this.limiter.take(channel, at);
      if (wait > 0) {
        const response = { ok: false, error: 'ratelimited' };
        this.recorded.push({ method, args, at, status: 429, response });
        return void send(res, 429, response, { 'retry-after': String(Math.max(1, Math.ceil(wait / 1000))) });
      }
    }
    const response = this.dispatch(method, args, req.headers.authorization);
    this.recorded.push({ method, args, at, status: 200, response });
    const stallMs = this.stalls.get(method)?.shift();
    if (stallMs) await new Promise((resolve) => setTimeout(resolve, stallMs));
    if (!res.destroyed) send(res, 200, response);
  }

  private dispatch(method: string, args: Args, authorization: string | undefined): Record<string, unknown> {
    if (method === 'apps.connections.open')
      return this.socketMode?.connectionsOpen(authorization) ?? { ok: false, error: 'invalid_auth' };
    if (authorization !== `Bearer ${this.botToken}` && args.token !== this.botToken)
      return { ok: false, error: 'invalid_auth' };
    const handler = this.handlers[method];
    if (!handler) return { ok: false, error: 'unknown_method' };
    const injected = this.failures.get(method)?.shift();
    if (injected) return { ok: false, error: injected };
    return handler(args);
  }

  private postMessage(a: Args): Record<string, unknown> {
    const problem = this.contentProblem(a);
    if (problem) return problem;
    const channel = String(a.channel);
    const threadTs = typeof a.thread_ts === 'string' ? a.thread_ts : undefined;
    if (threadTs && !this.messages.has(`${channel}/${threadTs}`))
      return { ok: false, error: 'thread_not_found' };
    const ts = this.nextTs();
    const message: FakeMessage = {
      channel,
      ts,
      text: String(a.text ?? ''),
      blocks: (a.blocks as unknown[]) ?? [],
      ...(threadTs ? { threadTs } : {}),
      broadcast: a.reply_broadcast === true || a.reply_broadcast === 'true',
      updates: 0,
      ...(a.metadata === undefined ? {} : { metadata: parseJson(a.metadata) }),
    };
    this.messages.set(`${channel}/${ts}`, message);
    return {
      ok: true,
      channel,
      ts,
      message: { text: message.text, ts, ...(threadTs ? { thread_ts: threadTs } : {}) },
    };
  }

  /** chat.delete: the message is gone (its thread replies stay, as in Slack). */
  private deleteMessage(a: Args): Record<string, unknown> {
    const key = `${String(a.channel)}/${String(a.ts)}`;
    if (!this.messages.delete(key)) return { ok: false, error: 'message_not_found' };
    return { ok: true, channel: String(a.channel), ts: String(a.ts) };
  }

  private update(a: Args): Record<string, unknown> {
    const existing = this.messages.get(`${String(a.channel)}/${String(a.ts)}`);
    if (!existing) return { ok: false, error: 'message_not_found' };
    const problem = this.contentProblem(a);
    if (problem) return problem;
    existing.text = String(a.text ?? existing.text);
    if (a.blocks !== undefined) existing.blocks = a.blocks as unknown[];
    existing.updates += 1;
    return { ok: true, channel: existing.channel, ts: existing.ts, text: existing.text };
  }

  private postEphemeral(a: Args): Record<string, unknown> {
    if (typeof a.user !== 'string' || !a.user) return { ok: false, error: 'user_not_found' };
    return this.contentProblem(a) ?? { ok: true, message_ts: this.nextTs() };
  }

  private permalink(a: Args): Record<string, unknown> {
    const channel = String(a.channel);
    const ts = String(a.message_ts);
    if (!this.messages.has(`${channel}/${ts}`)) return { ok: false, error: 'message_not_found' };
    return {
      ok: true,
      channel,
      permalink: `https://fake.slack.test/archives/${channel}/p${ts.replace('.', '')}`,
    };
  }

  /**
   * views.open: the trigger_id must come from an interaction (the signed client's `trigger.<ms>.<n>`), be at most
   * 3 s old (`expired_trigger_id`) and not used before (`exchanged_trigger_id`); the view must be a valid modal.
   */
  private viewsOpen(a: Args): Record<string, unknown> {
    const trigger = typeof a.trigger_id === 'string' ? a.trigger_id : '';
    const issued = /^trigger\.(\d+)(\.\d+)?$/.exec(trigger);
    if (!issued) return { ok: false, error: 'invalid_trigger_id' };
    if (Date.now() - Number(issued[1]) > TRIGGER_TTL_MS) return { ok: false, error: 'expired_trigger_id' };
    if (this.usedTriggers.has(trigger)) return { ok: false, error: 'exchanged_trigger_id' };
    const problem = viewProblem(a.view);
    if (problem) return problem;
    this.usedTriggers.add(trigger);
    const id = `V${String(this.openViews.size + 1).padStart(8, '0')}`;
    const view = a.view as Record<string, unknown>;
    this.openViews.set(id, { id, triggerId: trigger, view, updates: 0 });
    return { ok: true, view: { id, ...view } };
  }

  private viewsUpdate(a: Args): Record<string, unknown> {
    const existing = this.openViews.get(String(a.view_id ?? ''));
    if (!existing) return { ok: false, error: 'not_found' };
    const problem = viewProblem(a.view);
    if (problem) return problem;
    existing.view = a.view as Record<string, unknown>;
    existing.updates += 1;
    return { ok: true, view: { id: existing.id, ...existing.view } };
  }

  /** files.getUploadURLExternal: `filename` and `length` (whole bytes, 1 B to 1 GB) are required. */
  private getUploadUrl(a: Args): Record<string, unknown> {
    const filename = typeof a.filename === 'string' ? a.filename : '';
    const length = Number(a.length);
    if (!filename || !Number.isInteger(length) || length < 1 || length > FILE_LIMITS.maxBytes)
      return { ok: false, error: 'invalid_arguments' };
    if (typeof a.alt_txt === 'string' && a.alt_txt.length > FILE_LIMITS.maxAltText)
      return { ok: false, error: 'alt_txt_too_large' };
    const id = `F${String(this.pendingFiles.size + this.sharedFiles.length + 1).padStart(8, '0')}`;
    this.pendingFiles.set(id, { filename, length });
    return { ok: true, upload_url: `${this.url}/upload/${id}`, file_id: id };
  }

  /** The upload URL: raw bytes or multipart (the first file part); 200 when received, 404 for an unknown id. */
  private async receiveUpload(id: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const pending = this.pendingFiles.get(id);
    if (!pending) return void send(res, 404, { ok: false, error: 'file_not_found' });
    const type = req.headers['content-type'] ?? '';
    let bytes = raw;
    if (type.startsWith('multipart/form-data')) {
      const form = await new Response(raw, { headers: { 'content-type': type } }).formData();
      const part = [...form.values()].find((v) => typeof v !== 'string');
      bytes = part && typeof part !== 'string' ? Buffer.from(await part.arrayBuffer()) : Buffer.alloc(0);
    }
    pending.bytes = bytes;
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`OK - ${bytes.length}`);
  }

  /**
   * files.completeUploadExternal: every file must have been issued and uploaded with exactly the `length` declared
   * (`file_not_found` otherwise); with `channel_id` the files are shared there (in `thread_ts`'s thread, which must
   * exist) as a message, as Slack posts them.
   */
  private completeUpload(a: Args): Record<string, unknown> {
    const files = parseJson(a.files);
    if (!Array.isArray(files) || files.length === 0) return { ok: false, error: 'invalid_arguments' };
    const channel = typeof a.channel_id === 'string' && a.channel_id ? a.channel_id : undefined;
    const threadTs = typeof a.thread_ts === 'string' && a.thread_ts ? a.thread_ts : undefined;
    if (threadTs && (!channel || !this.messages.has(`${channel}/${threadTs}`)))
      return { ok: false, error: 'invalid_thread_ts' };
    const entries = files as { id?: string; title?: string }[];
    for (const entry of entries) {
      const pending = this.pendingFiles.get(String(entry.id));
      if (!pending?.bytes || pending.bytes.length !== pending.length)
        return { ok: false, error: 'file_not_found' };
    }
    const shared = entries.map((entry) => {
      const id = String(entry.id);
      const pending = this.pendingFiles.get(id)!;
      this.pendingFiles.delete(id);
      const file: FakeFile = {
        id,
        filename: pending.filename,
        title: entry.title ?? pending.filename,
        content: pending.bytes!.toString('utf8'),
        ...(channel ? { channel } : {}),
        ...(threadTs ? { threadTs } : {}),
        permalink: `https://fake.slack.test/files/U0BOT/${id}/${encodeURIComponent(pending.filename)}`,
      };
      this.sharedFiles.push(file);
      return file;
    });
    if (channel) {
      const ts = this.nextTs();
      const text = typeof a.initial_comment === 'string' ? a.initial_comment : '';
      this.messages.set(`${channel}/${ts}`, {
        channel,
        ts,
        text,
        blocks: [],
        ...(threadTs ? { threadTs } : {}),
        broadcast: false,
        updates: 0,
      });
    }
    return {
      ok: true,
      files: shared.map((f) => ({ id: f.id, title: f.title, name: f.filename, permalink: f.permalink })),
    };
  }

  private userInfo(a: Args): Record<string, unknown> {
    const u = this.options.users?.find((x) => x.id === a.user);
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

  private usergroupUsers(a: Args): Record<string, unknown> {
    const users = this.options.usergroups?.[String(a.usergroup)];
    return users ? { ok: true, users } : { ok: false, error: 'no_such_subteam' };
  }

  /** Top-level messages of a channel, newest first, at or after `oldest`; `metadata` only with include_all_metadata. */
  private conversationHistory(a: Args): Record<string, unknown> {
    const channel = String(a.channel ?? '');
    if (!channel) return { ok: false, error: 'channel_not_found' };
    const oldest = Number(a.oldest ?? 0);
    const withMetadata = a.include_all_metadata === true || a.include_all_metadata === 'true';
    const limit = Math.min(999, Number(a.limit ?? 100));
    const messages = this.channelMessages(channel)
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
  private conversationReplies(a: Args): Record<string, unknown> {
    const channel = String(a.channel ?? '');
    const ts = String(a.ts ?? '');
    if (!channel) return { ok: false, error: 'channel_not_found' };
    const parent = this.messages.get(`${channel}/${ts}`);
    if (!parent) return { ok: false, error: 'thread_not_found' };
    const withMetadata = a.include_all_metadata === true || a.include_all_metadata === 'true';
    const limit = Math.max(1, Math.min(1000, Number(a.limit ?? 1000)));
    const start = Number(a.cursor ?? 0) || 0;
    const all = [parent, ...this.thread(channel, ts)];
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

  private conversationInfo(a: Args): Record<string, unknown> {
    const id = String(a.channel ?? '');
    if (!id) return { ok: false, error: 'channel_not_found' };
    const c = this.options.channels?.[id] ?? { name: id.toLowerCase() };
    return { ok: true, channel: { id, name: c.name, is_private: c.isPrivate ?? false, is_member: true } };
  }

  /** Slack's checks on text/blocks: `channel_not_found`, `no_text`, `msg_too_long`, `invalid_blocks`. */
  private contentProblem(a: Args): Record<string, unknown> | undefined {
    if (typeof a.channel !== 'string' || !a.channel) return { ok: false, error: 'channel_not_found' };
    const text = typeof a.text === 'string' ? a.text : '';
    const noBlocks = a.blocks === undefined || (Array.isArray(a.blocks) && a.blocks.length === 0);
    if (!text && noBlocks) return { ok: false, error: 'no_text' };
    if (text.length > LIMITS.text) return { ok: false, error: 'msg_too_long' };
    if (a.blocks === undefined) return undefined;
    const problems = blockProblems(a.blocks);
    return problems.length
      ? { ok: false, error: 'invalid_blocks', response_metadata: { messages: problems } }
      : undefined;
  }

  private nextTs(): string {
    this.seq += 1;
    return `${Math.floor(Date.now() / 1000)}.${String(this.seq).padStart(6, '0')}`;
  }
}

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(raw: string, req: IncomingMessage): Args {
  if ((req.headers['content-type'] ?? '').includes('application/json'))
    return raw ? (JSON.parse(raw) as Args) : {};
  const args: Args = Object.fromEntries(new URLSearchParams(raw));
  for (const key of ['blocks', 'attachments', 'view']) {
    const v = args[key];
    if (typeof v === 'string') {
      try {
        args[key] = JSON.parse(v);
      } catch {
        args[key] = v; // left as a string → invalid_blocks
      }
    }
  }
  return args;
}

function viewProblem(view: unknown): Record<string, unknown> | undefined {
  const problems = modalProblems(view);
  return problems.length
    ? { ok: false, error: 'invalid_arguments', response_metadata: { messages: problems } }
    : undefined;
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}
