/**
 * What reaches the bot from Slack, checked once at the edge (zod) before any listener runs: the slash command,
 * block_actions (button clicks), view_submission, and Socket Mode envelopes. Bolt parses the body (form fields, or
 * `payload=<json>`); `checkSlackPayload` then decides whether it is something wavesync handles, in the shape Slack
 * sends it (https://docs.slack.dev/reference/interaction-payloads/block_actions-payload,
 * https://docs.slack.dev/interactivity/implementing-slash-commands). What is not — a payload that is not an object,
 * `"actions": null`, an unknown button, a user id with spaces, a `channel` other than the clicked message's — is
 * refused by name: HTTP 400 with the reason, within the request (request-guard.ts, before Bolt reads it), or in
 * Socket Mode acked and dropped (slack-app.ts); nothing changed. Listeners receive only checked values and rely on
 * them (the clicked message's channel and ts, one button action, Slack ids) without
 * checking again; who may do what is decided where it always was (authorizeAction).
 *
 * A well-formed payload wavesync has no listener for (view_submission: wavesync opens no form with a submit
 * button; shortcuts; Events API callbacks: the app subscribes to no events) is refused the same way at once,
 * instead of Bolt's 404 after its 3 s wait for a listener.
 */
import type { BlockAction } from '@slack/bolt';
import { z } from 'zod';

/** A Slack id (user, channel, team, enterprise): capital letters and digits. */
const slackId = z.string().regex(/^[A-Z0-9]{1,40}$/, 'expected a Slack id (capital letters and digits)');
/** A message timestamp, `seconds.micros`. */
const messageTs = z.string().regex(/^\d{1,12}\.\d{1,8}$/, 'expected a message ts like 1764633600.000100');
const name = z.string().max(255);
const httpUrl = z.url({ protocol: /^https?$/ }).max(2048);

/** How long `/sync …` text may be (characters); Slack's message text limit is far above any command. */
const MAX_COMMAND_TEXT = 4000;
/** Slack's limit on a button's value (characters). */
const MAX_BUTTON_VALUE = 2000;

function slashCommandSchema(command: string) {
  return z.looseObject({
    command: z.literal(command, { error: `expected the command ${command}` }),
    text: z.string().max(MAX_COMMAND_TEXT),
    user_id: slackId,
    user_name: name,
    channel_id: slackId,
    channel_name: name.optional(),
    team_id: slackId,
    response_url: httpUrl,
    trigger_id: z.string().min(1).max(255),
  });
}

function buttonActionSchema(actionIds: readonly string[]) {
  return z.looseObject({
    type: z.literal('button'),
    action_id: z.enum(actionIds as [string, ...string[]], { error: 'not a wavesync button' }),
    block_id: z.string().max(255),
    value: z.string().max(MAX_BUTTON_VALUE).optional(),
    action_ts: z.string().max(40).optional(),
  });
}

function blockActionsSchema(actionIds: readonly string[]) {
  return z
    .looseObject({
      type: z.literal('block_actions'),
      user: z.looseObject({
        id: slackId,
        username: name.optional(),
        name: name.optional(),
        team_id: slackId.optional(),
      }),
      team: z.looseObject({ id: slackId }).nullable().optional(),
      // Every wavesync button is on a message (a channel message or an ephemeral one).
      container: z.looseObject({ type: z.literal('message'), channel_id: slackId, message_ts: messageTs }),
      channel: z.looseObject({ id: slackId }).optional(),
      message: z.looseObject({ ts: messageTs }).optional(),
      response_url: httpUrl.optional(),
      trigger_id: z.string().min(1).max(255),
      actions: z.array(buttonActionSchema(actionIds)).length(1, 'expected exactly one action'),
    })
    .refine((p) => p.channel === undefined || p.channel.id === p.container.channel_id, {
      message: 'channel.id differs from container.channel_id',
      path: ['channel', 'id'],
    })
    .refine((p) => p.message === undefined || p.message.ts === p.container.message_ts, {
      message: 'message.ts differs from container.message_ts',
      path: ['message', 'ts'],
    });
}

const viewSubmissionSchema = z.looseObject({
  type: z.literal('view_submission'),
  user: z.looseObject({ id: slackId }),
  view: z.looseObject({ id: z.string().max(255), callback_id: z.string().max(255) }),
});

/** A Socket Mode envelope (https://docs.slack.dev/apis/events-api/using-socket-mode). */
const socketEnvelopeSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.enum(['hello', 'disconnect']) }),
  z.looseObject({
    type: z.enum(['slash_commands', 'interactive']),
    envelope_id: z.string().min(1).max(255),
    // Checked with the payload rules after the client has read the envelope (so a bad payload is still acked).
    payload: z.unknown(),
    retry_attempt: z.number().int().min(0).optional(),
    retry_reason: z.string().max(255).optional(),
    accepts_response_payload: z.boolean().optional(),
  }),
  z.looseObject({
    type: z.literal('events_api'),
    envelope_id: z.string().min(1).max(255),
    payload: z.looseObject({ event: z.looseObject({ type: z.string() }) }),
  }),
]);

type SlashCommandPayload = z.infer<ReturnType<typeof slashCommandSchema>>;
type BlockActionsPayload = z.infer<ReturnType<typeof blockActionsSchema>>;

export type PayloadCheck =
  | { ok: true; kind: 'handshake'; payload: Record<string, unknown> }
  | { ok: true; kind: 'command'; payload: SlashCommandPayload }
  | { ok: true; kind: 'block_actions'; payload: BlockActionsPayload }
  | { ok: false; problem: string };

/** What the bot handles: its slash command's name and the action ids of its buttons. */
export interface PayloadRules {
  command: string;
  actionIds: readonly string[];
}

/**
 * The check of parsed Slack request bodies (HTTP, or a Socket Mode envelope's payload) against `rules`. The schemas
 * are built at the first check (building one costs milliseconds, checking microseconds), so `rules.actionIds` may
 * be filled until then.
 */
export function slackPayloadChecker(rules: PayloadRules): (body: unknown) => PayloadCheck {
  let schemas:
    | { command: ReturnType<typeof slashCommandSchema>; blockActions: ReturnType<typeof blockActionsSchema> }
    | undefined;
  return (body) => {
    schemas ??= {
      command: slashCommandSchema(rules.command),
      blockActions: blockActionsSchema(rules.actionIds),
    };
    return checkWith(schemas, rules, body);
  };
}

function checkWith(
  schemas: {
    command: ReturnType<typeof slashCommandSchema>;
    blockActions: ReturnType<typeof blockActionsSchema>;
  },
  rules: PayloadRules,
  body: unknown,
): PayloadCheck {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, problem: `the payload is ${describe(body)}, not an object` };
  }
  const record = body as Record<string, unknown>;
  // Slack's SSL check and URL verification, which Bolt's HTTP receiver answers itself.
  if (record.ssl_check === '1' || record.type === 'url_verification') {
    return { ok: true, kind: 'handshake', payload: record };
  }
  if ('command' in record) {
    const parsed = schemas.command.safeParse(record);
    return parsed.success
      ? { ok: true, kind: 'command', payload: parsed.data }
      : { ok: false, problem: problemsOf(parsed.error) };
  }
  switch (record.type) {
    case 'block_actions': {
      const parsed = schemas.blockActions.safeParse(record);
      return parsed.success
        ? { ok: true, kind: 'block_actions', payload: parsed.data }
        : { ok: false, problem: problemsOf(parsed.error) };
    }
    case 'view_submission': {
      const parsed = viewSubmissionSchema.safeParse(record);
      if (!parsed.success) return { ok: false, problem: problemsOf(parsed.error) };
      return { ok: false, problem: 'view_submission: wavesync opens no form that can be submitted' };
    }
    default: {
      const type = typeof record.type === 'string' ? `type "${record.type.slice(0, 40)}"` : 'no type';
      return {
        ok: false,
        problem: `${type}: wavesync handles ${rules.command} and block_actions of its buttons only`,
      };
    }
  }
}

/** A Socket Mode message checked before the Socket Mode client reads it: why it is dropped, or undefined. */
export function socketEnvelopeProblem(data: string): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return 'not JSON';
  }
  const parsed = socketEnvelopeSchema.safeParse(json);
  return parsed.success ? undefined : problemsOf(parsed.error);
}

/** The clicked message of a checked block_actions payload (the edge guaranteed `container`). */
export function clickedMessage(body: BlockAction): { channel: string; ts: string } {
  const container = (body as unknown as BlockActionsPayload).container;
  return { channel: container.channel_id, ts: container.message_ts };
}

/** Thrown by the edge check (slack-app.ts turns it into HTTP 400, or an acked and dropped envelope). */
export class MalformedSlackPayload extends Error {
  override readonly name = 'MalformedSlackPayload';
}

function problemsOf(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`);
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : '';
  return `${shown.join('; ')}${more}`;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}
