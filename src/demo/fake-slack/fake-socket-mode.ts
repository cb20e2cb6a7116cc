/**
 * Slack's side of Socket Mode (https://docs.slack.dev/apis/events-api/using-socket-mode), for tests and the demo,
 * spoken over a real WebSocket (the `ws` package) to Bolt's real SocketModeReceiver:
 * - `apps.connections.open` (on the fake Web API, with the app-level `xapp-` token) hands out a one-time
 *   `ws://127.0.0.1:PORT/link/?ticket=…&app_id=…` URL; any other token gets `invalid_auth`, a bot token
 *   `not_allowed_token_type`;
 * - on connect the server sends `hello` (`num_connections`, `debug_info`, `connection_info.app_id`) and pings every
 *   `pingIntervalMs` (the client drops a link that stays silent for 30 s);
 * - `slash_commands` and `interactive` envelopes carry the same payloads as the HTTP receiver gets, with an
 *   `envelope_id` and `accepts_response_payload`; the client acks with `{ envelope_id, payload }`;
 * - an envelope not acked within 3 s (Slack's limit) is sent again with `retry_attempt` (1, 2, …) and
 *   `retry_reason: "timeout"`, up to `maxRetries` times; one whose connection closed before the ack is sent again
 *   on the next connection with `retry_reason: "connection_closed"`;
 * - `refresh()` sends `{ type: "disconnect", reason: "refresh_requested" }`, as Slack does before it recycles a
 *   link; the client reconnects through `apps.connections.open`. An envelope finding no live connection waits
 *   for one, its deadline running: past it, it counts as a timed-out attempt (the next one says `retry_attempt`).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import {
  type BlockActionInput,
  blockActionPayload,
  type Delivery,
  type SlackSender,
  type SlashCommandInput,
  slashCommandFields,
} from './slack-client.js';

/** Slack's deadline for an envelope's ack, in ms. */
const SOCKET_MODE_ACK_MS = 3000;
/** The app id the fake reports (`connection_info.app_id`, `api_app_id` of payloads). */
const APP_ID = 'A0WAVESYNC';

export interface FakeSocketModeOptions {
  /** App-level token apps.connections.open accepts. Default `xapp-1-test-token`. */
  appToken?: string;
  /** Ack deadline per delivery, ms (default 3000, Slack's). */
  ackTimeoutMs?: number;
  /** Re-deliveries after the first attempt before giving up (default 3). */
  maxRetries?: number;
  /** Server → client WebSocket ping period, ms (default 5000). */
  pingIntervalMs?: number;
}

/** One envelope as sent on the wire. */
export interface SocketEnvelope {
  envelope_id: string;
  type: 'slash_commands' | 'interactive';
  payload: Record<string, unknown>;
  accepts_response_payload: boolean;
  retry_attempt?: number;
  retry_reason?: string;
}

/** What happened to one envelope. */
export interface EnvelopeRecord {
  envelopeId: string;
  type: SocketEnvelope['type'];
  /** Sends so far (1 + re-deliveries), with the connection id and retry fields of each. */
  sends: { connection: number; at: number; retryAttempt?: number; retryReason?: string }[];
  /** The ack's `payload`, once acked. */
  ack?: Record<string, unknown>;
  /** ms from the first send to the ack. */
  ackMs?: number;
  /** Acks that arrived for this envelope after the first one (a client acking a re-delivery again). */
  extraAcks: number;
}

interface Pending {
  envelope: SocketEnvelope;
  record: EnvelopeRecord;
  firstSentAt?: number;
  timer?: NodeJS.Timeout;
  connection?: Link;
  settle(delivery: Delivery): void;
}

interface Link {
  id: number;
  socket: WebSocket;
  /** Set once `disconnect` was sent: no new envelopes go here. */
  draining: boolean;
}

export class FakeSocketMode implements SlackSender {
  readonly appToken: string;
  private readonly ackTimeoutMs: number;
  private readonly maxRetries: number;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly tickets = new Set<string>();
  private readonly links: Link[] = [];
  private readonly pending = new Map<string, Pending>();
  private readonly records: EnvelopeRecord[] = [];
  private readonly waiting: Pending[] = [];
  /** Each envelope as first sent (re-deliveries copy it). */
  private readonly firstEnvelope = new Map<string, SocketEnvelope>();
  private readonly pinger: NodeJS.Timeout;
  private connectionsSeen = 0;
  private triggers = 0;
  private baseUrl = '';

  constructor(options: FakeSocketModeOptions = {}) {
    this.appToken = options.appToken ?? 'xapp-1-test-token';
    this.ackTimeoutMs = options.ackTimeoutMs ?? SOCKET_MODE_ACK_MS;
    this.maxRetries = options.maxRetries ?? 3;
    this.pinger = setInterval(() => {
      for (const link of this.links) link.socket.ping();
    }, options.pingIntervalMs ?? 5000);
    this.pinger.unref();
  }

  /** Set by the fake Web API once it listens: `http://127.0.0.1:PORT`. */
  attach(baseUrl: string): void {
    this.baseUrl = baseUrl;
  }

  /**
   * `apps.connections.open` (https://docs.slack.dev/reference/methods/apps.connections.open): `{ ok, url }` for the
   * app-level token; a bot token gets `not_allowed_token_type`, anything else `invalid_auth`.
   */
  connectionsOpen(authorization: string | undefined): Record<string, unknown> {
    const token = authorization?.replace(/^Bearer /, '') ?? '';
    if (token !== this.appToken)
      return { ok: false, error: token.startsWith('xoxb-') ? 'not_allowed_token_type' : 'invalid_auth' };
    const ticket = randomUUID();
    this.tickets.add(ticket);
    return {
      ok: true,
      url: `${this.baseUrl.replace(/^http/, 'ws')}/link/?ticket=${ticket}&app_id=${APP_ID}`,
    };
  }

  /** HTTP upgrade on `/link/`: accepted once per ticket (a reused or unknown ticket gets 401). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const ticket = url.searchParams.get('ticket') ?? '';
    if (url.pathname !== '/link/' || !this.tickets.delete(ticket)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws));
  }

  /** Open connections (not counting ones told to disconnect). */
  get connections(): number {
    return this.links.filter((l) => !l.draining).length;
  }

  /** How many WebSocket connections were ever accepted. */
  get connectionCount(): number {
    return this.connectionsSeen;
  }

  /** Every envelope sent so far, oldest first. */
  envelopes(): EnvelopeRecord[] {
    return [...this.records];
  }

  /** Resolve once a client is connected (hello sent); reject after `timeoutMs`. */
  async waitForConnection(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.connections === 0) {
      if (Date.now() > deadline) throw new Error(`no Socket Mode connection within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** A `slash_commands` envelope (accepts_response_payload: true). Resolves when acked, or gives up. */
  sendCommand(input: SlashCommandInput): Promise<Delivery> {
    return this.deliver('slash_commands', slashCommandFields(input, ++this.triggers), true);
  }

  /** An `interactive` envelope carrying a block_actions payload. */
  sendBlockAction(input: BlockActionInput): Promise<Delivery> {
    return this.deliver('interactive', blockActionPayload(input, ++this.triggers), false);
  }

  /** An envelope of `type` carrying `payload` as given (a malformed one, for the negative tests). */
  sendEnvelope(type: SocketEnvelope['type'], payload: unknown): Promise<Delivery> {
    return this.deliver(type, payload as Record<string, unknown>, type === 'slash_commands');
  }

  /** Raw text on every live connection (not an envelope the fake tracks: nothing waits for an ack). */
  sendText(text: string): void {
    for (const link of this.links) if (!link.draining) link.socket.send(text);
  }

  /**
   * Send an already acked envelope again, as Slack does when the ack was lost on its side: the same envelope_id
   * and payload, `retry_attempt` one more than its last send, `retry_reason` given. Resolves on the new ack.
   */
  redeliver(envelopeId: string, reason = 'timeout'): Promise<Delivery> {
    const record = this.records.find((r) => r.envelopeId === envelopeId);
    if (!record) throw new Error(`unknown envelope ${envelopeId}`);
    const first = this.firstEnvelope.get(envelopeId)!;
    const attempt = record.sends.length;
    delete record.ack;
    return this.enqueue({ ...first, retry_attempt: attempt, retry_reason: reason }, record);
  }

  /**
   * `{ type: "disconnect", reason: "refresh_requested" }` on every open connection, as Slack sends before it
   * recycles a link; new envelopes wait for the client's next connection.
   */
  refresh(): void {
    for (const link of this.links) {
      if (link.draining) continue;
      link.draining = true;
      link.socket.send(
        JSON.stringify({
          type: 'disconnect',
          reason: 'refresh_requested',
          debug_info: { host: 'applink-fake' },
        }),
      );
    }
  }

  async close(): Promise<void> {
    clearInterval(this.pinger);
    for (const p of this.pending.values()) clearTimeout(p.timer);
    for (const link of this.links) link.socket.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private deliver(
    type: SocketEnvelope['type'],
    payload: Record<string, unknown>,
    acceptsResponsePayload: boolean,
  ): Promise<Delivery> {
    const envelope: SocketEnvelope = {
      envelope_id: randomUUID(),
      type,
      payload,
      accepts_response_payload: acceptsResponsePayload,
    };
    const record: EnvelopeRecord = { envelopeId: envelope.envelope_id, type, sends: [], extraAcks: 0 };
    this.records.push(record);
    this.firstEnvelope.set(envelope.envelope_id, envelope);
    return this.enqueue(envelope, record);
  }

  private enqueue(envelope: SocketEnvelope, record: EnvelopeRecord): Promise<Delivery> {
    return new Promise<Delivery>((resolve) => {
      const p: Pending = { envelope, record, settle: resolve };
      this.pending.set(envelope.envelope_id, p);
      this.send(p);
    });
  }

  /** Send on a live connection (or wait for one), arming the ack deadline. */
  private send(p: Pending): void {
    const link = this.links.find((l) => !l.draining && l.socket.readyState === l.socket.OPEN);
    if (!link) {
      // No connection: the deadline runs all the same (Slack does not hold envelopes for an app that is away).
      this.waiting.push(p);
      p.timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(p), 1);
        this.retry(p, 'timeout');
      }, this.ackTimeoutMs);
      return;
    }
    const now = Date.now();
    p.firstSentAt ??= now;
    p.connection = link;
    p.record.sends.push({
      connection: link.id,
      at: now,
      ...(p.envelope.retry_attempt === undefined
        ? {}
        : { retryAttempt: p.envelope.retry_attempt, retryReason: p.envelope.retry_reason }),
    });
    link.socket.send(JSON.stringify(p.envelope));
    p.timer = setTimeout(() => this.retry(p, 'timeout'), this.ackTimeoutMs);
  }

  /** Re-deliver with the next retry_attempt, or give up (status 0: Slack shows the user a timeout). */
  private retry(p: Pending, reason: string): void {
    clearTimeout(p.timer);
    const attempt = (p.envelope.retry_attempt ?? 0) + 1;
    if (attempt > this.maxRetries) {
      this.pending.delete(p.envelope.envelope_id);
      p.settle({
        status: 0,
        body: 'operation_timeout',
        json: undefined,
        ackMs: Date.now() - (p.firstSentAt ?? 0),
      });
      return;
    }
    p.envelope = { ...p.envelope, retry_attempt: attempt, retry_reason: reason };
    this.send(p);
  }

  private onConnection(socket: WebSocket): void {
    this.connectionsSeen += 1;
    const link: Link = { id: this.connectionsSeen, socket, draining: false };
    this.links.push(link);
    socket.on('message', (data: RawData) => this.onAck(link, data.toString()));
    socket.on('close', () => this.onClose(link));
    socket.on('error', () => socket.terminate());
    socket.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.connections,
        debug_info: { host: 'applink-fake', build_number: 1, approximate_connection_time: 18_060 },
        connection_info: { app_id: APP_ID },
      }),
    );
    for (const p of this.waiting.splice(0)) {
      clearTimeout(p.timer);
      this.send(p);
    }
  }

  private onAck(link: Link, text: string): void {
    let message: { envelope_id?: unknown; payload?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (typeof message.envelope_id !== 'string') return;
    const p = this.pending.get(message.envelope_id);
    if (!p) {
      const record = this.records.find((r) => r.envelopeId === message.envelope_id);
      if (record) record.extraAcks += 1;
      return;
    }
    if (p.connection !== link) return; // an ack on another link does not count for this send
    clearTimeout(p.timer);
    this.pending.delete(message.envelope_id);
    const payload = (message.payload ?? {}) as Record<string, unknown>;
    const ackMs = Date.now() - (p.firstSentAt ?? Date.now());
    p.record.ack = payload;
    p.record.ackMs = ackMs;
    p.settle({ status: 200, body: JSON.stringify(payload), json: payload, ackMs });
  }

  /** A closed link: its unacked envelopes go again on the next connection. */
  private onClose(link: Link): void {
    this.links.splice(this.links.indexOf(link), 1);
    for (const p of this.pending.values()) {
      if (p.connection === link && this.waiting.indexOf(p) < 0) this.retry(p, 'connection_closed');
    }
  }
}
