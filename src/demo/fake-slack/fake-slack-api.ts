/**
 * A local fake of Slack's Web API for tests and the demo: an HTTP server on 127.0.0.1 (port 0) that answers
 * auth.test, chat.postMessage, chat.update, chat.postEphemeral, chat.getPermalink, users.info,
 * usergroups.users.list, conversations.info, views.open, views.update and files.uploadV2's three steps
 * (files.getUploadURLExternal, the POST of the bytes to the returned upload_url, files.completeUploadExternal) the way Slack does (HTTP 200 with `{ok:false,error}` for
 * platform errors, HTTP 429 + Retry-After for rate limits), enforces Slack's message limits, records every call
 * and keeps the resulting messages so tests can assert threads. It also receives `response_url` posts at
 * `/response/<id>`. With `socketMode`, it is also Slack's Socket Mode endpoint (`apps.connections.open` and the
 * WebSocket it hands out: FakeSocketMode). Here: the server, the message methods and the failure knobs; the modals
 * (./fake-slack-views.ts), file uploads (./fake-slack-files.ts) and the read methods (./fake-slack-reads.ts) are
 * parts of their own.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChannelRateLimiter } from './channel-rate-limiter.js';
import { type FakeFile, FakeFileUploads } from './fake-slack-files.js';
import { type Args, parseBody, parseJson, readBody, send } from './fake-slack-http.js';
import {
  conversationHistory,
  conversationInfo,
  conversationReplies,
  usergroupUsers,
  userInfo,
} from './fake-slack-reads.js';
import type { FakeMessage, FakeSlackOptions, RecordedCall, ResponseUrlPost } from './fake-slack-types.js';
import { type FakeView, FakeViews } from './fake-slack-views.js';
import { FakeSocketMode } from './fake-socket-mode.js';
import { blockProblems, LIMITS } from './slack-block-rules.js';

export type { FakeMessage, FakeSlackOptions, RecordedCall, ResponseUrlPost } from './fake-slack-types.js';

type Handler = (args: Args) => Record<string, unknown>;

export class FakeSlackApi {
  readonly botToken: string;
  /** Slack's Socket Mode side, when started with `socketMode`. */
  readonly socketMode: FakeSocketMode | undefined;
  private readonly recorded: RecordedCall[] = [];
  private readonly responsePosts: ResponseUrlPost[] = [];
  private readonly messages = new Map<string, FakeMessage>();
  private readonly failures = new Map<string, string[]>();
  private readonly modals = new FakeViews();
  private readonly uploads: FakeFileUploads;
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
    this.uploads = new FakeFileUploads({
      url: () => this.url,
      hasMessage: (channel, ts) => this.messages.has(`${channel}/${ts}`),
      postFileMessage: (channel, threadTs, text) => this.postFileMessage(channel, threadTs, text),
    });
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
      'users.info': (a) => userInfo(this.options, a),
      'usergroups.users.list': (a) => usergroupUsers(this.options, a),
      'conversations.info': (a) => conversationInfo(this.options, a),
      'conversations.history': (a) => conversationHistory(this, a),
      'conversations.replies': (a) => conversationReplies(this, a),
      'views.open': (a) => this.modals.open(a),
      'views.update': (a) => this.modals.update(a),
      'files.getUploadURLExternal': (a) => this.uploads.uploadUrl(a),
      'files.completeUploadExternal': (a) => this.uploads.complete(a),
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
    return this.uploads.all();
  }

  /** Modals opened by views.open, in order (with their latest content). */
  views(): FakeView[] {
    return this.modals.all();
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
      return this.uploads.receive(path.slice(8), req, res);
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

  /** The message files.completeUploadExternal posts to share files in a channel (or a thread). */
  private postFileMessage(channel: string, threadTs: string | undefined, text: string): void {
    const ts = this.nextTs();
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
