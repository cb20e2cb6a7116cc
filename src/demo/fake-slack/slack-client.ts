/**
 * Plays Slack's side of the bot's HTTP endpoint: sends slash commands and block_actions to `POST /slack/events`
 * signed exactly as Slack signs them (https://docs.slack.dev/authentication/verifying-requests-from-slack):
 * `X-Slack-Signature: v0=<hex HMAC-SHA256(signing secret, "v0:<timestamp>:<raw body>")>` and
 * `X-Slack-Request-Timestamp: <unix seconds>`; commands form-encoded, interactivity as `payload=<json>`.
 * Options forge signatures, shift timestamps, drop headers and add X-Slack-Retry-Num for the negative tests.
 */
import { createHmac } from 'node:crypto';

/** `v0=` + hex HMAC-SHA256 of `v0:<timestampSec>:<body>` keyed with the signing secret. */
export function signSlackRequest(signingSecret: string, timestampSec: number, body: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestampSec}:${body}`).digest('hex')}`;
}

export interface DeliveryOptions {
  /** Unix seconds to send (default now). */
  timestampSec?: number;
  /** Send this signature instead of the right one. */
  signature?: string;
  /** Sign with another secret. */
  signingSecret?: string;
  /** Leave out these headers. */
  omit?: readonly ('signature' | 'timestamp')[];
  /** Adds X-Slack-Retry-Num / X-Slack-Retry-Reason as Slack does on redelivery. */
  retryNum?: number;
}

export interface Delivery {
  status: number;
  /** Raw response body. */
  body: string;
  /** Parsed JSON body when it is JSON. */
  json: Record<string, unknown> | undefined;
  /** ms from sending to the response (the ack). */
  ackMs: number;
}

export interface SlashCommandInput {
  text: string;
  command?: string;
  userId?: string;
  userName?: string;
  channelId?: string;
  channelName?: string;
  teamId?: string;
  responseUrl?: string;
  triggerId?: string;
}

export interface BlockActionInput {
  actionId: string;
  value?: string;
  blockId?: string;
  userId?: string;
  userName?: string;
  channelId?: string;
  /** ts of the message holding the button. */
  messageTs: string;
  responseUrl?: string;
  teamId?: string;
}

/** What plays Slack's side towards the bot: signed HTTP (SignedSlackClient) or Socket Mode (FakeSocketMode). */
export interface SlackSender {
  sendCommand(input: SlashCommandInput): Promise<Delivery>;
  sendBlockAction(input: BlockActionInput): Promise<Delivery>;
}

/**
 * The fields of a slash command as Slack sends them (https://docs.slack.dev/interactivity/implementing-slash-commands):
 * form fields over HTTP, the same names as a JSON object in a Socket Mode `slash_commands` envelope. `n` makes the
 * trigger_id unique (`trigger.<ms>.<n>`, the fake Web API's views.open checks its age).
 */
export function slashCommandFields(input: SlashCommandInput, n: number): Record<string, string> {
  return {
    token: 'deprecated-verification-token',
    team_id: input.teamId ?? 'T0FAKE',
    team_domain: 'fake',
    channel_id: input.channelId ?? 'C0DEPLOYS',
    channel_name: input.channelName ?? 'deploys',
    user_id: input.userId ?? 'U0PAT',
    user_name: input.userName ?? 'pat',
    command: input.command ?? '/sync',
    text: input.text,
    api_app_id: 'A0WAVESYNC',
    is_enterprise_install: 'false',
    response_url: input.responseUrl ?? 'http://127.0.0.1:9/response/unused',
    trigger_id: input.triggerId ?? `trigger.${Date.now()}.${n}`,
  };
}

/** A `block_actions` payload (one button click), as Slack sends it (https://docs.slack.dev/reference/interaction-payloads/block_actions-payload). */
export function blockActionPayload(input: BlockActionInput, n: number): Record<string, unknown> {
  const userId = input.userId ?? 'U0PAT';
  const channelId = input.channelId ?? 'C0DEPLOYS';
  return {
    type: 'block_actions',
    user: {
      id: userId,
      username: input.userName ?? 'pat',
      name: input.userName ?? 'pat',
      team_id: input.teamId ?? 'T0FAKE',
    },
    api_app_id: 'A0WAVESYNC',
    token: 'deprecated-verification-token',
    container: { type: 'message', message_ts: input.messageTs, channel_id: channelId, is_ephemeral: false },
    trigger_id: `trigger.${Date.now()}.${n}`,
    team: { id: input.teamId ?? 'T0FAKE', domain: 'fake' },
    channel: { id: channelId, name: 'deploys' },
    message: { type: 'message', ts: input.messageTs, text: '' },
    response_url: input.responseUrl ?? 'http://127.0.0.1:9/response/unused',
    actions: [
      {
        type: 'button',
        action_id: input.actionId,
        block_id: input.blockId ?? 'b1',
        text: { type: 'plain_text', text: input.actionId },
        value: input.value,
        action_ts: `${Date.now() / 1000}`,
      },
    ],
  };
}

export class SignedSlackClient implements SlackSender {
  private readonly eventsUrl: string;
  private readonly signingSecret: string;
  private triggers = 0;

  /** `botUrl` like `http://127.0.0.1:PORT`; requests go to `${botUrl}/slack/events`. */
  constructor(botUrl: string, signingSecret: string) {
    this.eventsUrl = `${botUrl.replace(/\/$/, '')}/slack/events`;
    this.signingSecret = signingSecret;
  }

  /** A slash command as Slack posts it (form fields of `SlashCommand`). */
  sendCommand(input: SlashCommandInput, options: DeliveryOptions = {}): Promise<Delivery> {
    const form = new URLSearchParams(slashCommandFields(input, ++this.triggers));
    return this.sendRaw(form.toString(), 'application/x-www-form-urlencoded', options);
  }

  /** A block_actions interaction (button click), form-encoded as `payload=<json>`. */
  sendBlockAction(input: BlockActionInput, options: DeliveryOptions = {}): Promise<Delivery> {
    const form = new URLSearchParams({ payload: JSON.stringify(blockActionPayload(input, ++this.triggers)) });
    return this.sendRaw(form.toString(), 'application/x-www-form-urlencoded', options);
  }

  /** POST an arbitrary body, signed (unless options say otherwise). */
  async sendRaw(body: string, contentType: string, options: DeliveryOptions = {}): Promise<Delivery> {
    const ts = options.timestampSec ?? Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = { 'content-type': contentType };
    if (!options.omit?.includes('timestamp')) headers['x-slack-request-timestamp'] = String(ts);
    if (!options.omit?.includes('signature')) {
      headers['x-slack-signature'] =
        options.signature ?? signSlackRequest(options.signingSecret ?? this.signingSecret, ts, body);
    }
    if (options.retryNum !== undefined) {
      headers['x-slack-retry-num'] = String(options.retryNum);
      headers['x-slack-retry-reason'] = 'http_timeout';
    }
    const started = performance.now();
    const res = await fetch(this.eventsUrl, { method: 'POST', headers, body });
    const text = await res.text();
    const ackMs = performance.now() - started;
    let json: Record<string, unknown> | undefined;
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, body: text, json, ackMs };
  }
}
