/**
 * Every button that queues work or records a decision (Approve, Reject, Cancel, a drift notice's Sync, Delete)
 * goes through `durableClick`: acknowledge only what is durable. Slack gets its 3 s HTTP answer at once (`ack`),
 * but nothing the clicker or the channel sees — a response, a posted or updated message — is sent before the Redis
 * writes behind it are on the replicas (`DurableWrites.confirm`, Redis WAIT on the connections that wrote; a no-op
 * on a single Redis). When the replicas do not confirm, nothing is shown as done and the clicker is told
 * ephemerally that the click was not recorded. The approval flow's messenger waits the same way
 * (src/environments/approvals/resilient-messenger.ts `confirmedBeforeShown`); its refusal reaches the clicker here.
 */
import type { BlockAction, ButtonAction, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { alreadyDurable, type DurableWrites, NotReplicatedError } from '../../queue/index.js';
import { clickedMessage } from '../slack-payloads.js';

/** What a button listener receives (a subset of Bolt's action arguments). */
export interface ClickArgs {
  ack: () => Promise<void>;
  body: BlockAction;
  action: ButtonAction;
  respond: RespondFn;
  client: WebClient;
}

export interface DurableClickOptions {
  /** The bot's writers (default: nothing to wait for). */
  durable?: DurableWrites;
  /** Errors other than durability; default: rethrown to Bolt's error handler. */
  onError?(error: unknown): void;
}

/** Chat Web API methods that show something to the channel (gated); ephemeral ones confirm nothing. */
const SHOWING = new Set(['postMessage', 'update', 'scheduleMessage']);

/**
 * Wrap a button handler: ack, run it with `respond` and `client.chat.*` gated on `durable`, and turn a
 * NotReplicatedError (from the gate, or from a flow that gates itself) into an ephemeral "not recorded".
 */
export function durableClick(
  options: DurableClickOptions,
  handler: (args: Omit<ClickArgs, 'ack'>) => Promise<void>,
): (args: ClickArgs) => Promise<void> {
  const durable = options.durable ?? alreadyDurable;
  return async ({ ack, body, action, respond, client }) => {
    await ack();
    // Confirmed before each Slack call (later writes of the click are covered too); once a confirmation failed,
    // every later call of the click fails the same way without waiting again.
    let failed: unknown;
    const confirm = async () => {
      if (failed !== undefined) throw failed;
      try {
        await durable.confirm();
      } catch (error) {
        failed = error;
        throw error;
      }
    };
    const gatedRespond: RespondFn = async (message) => {
      await confirm();
      return respond(message);
    };
    try {
      await handler({ body, action, respond: gatedRespond, client: gatedClient(client, confirm) });
      // Whatever the handler wrote and did not show (e.g. it answered through the ack) is confirmed too.
      await confirm();
    } catch (error) {
      if (!(error instanceof NotReplicatedError)) {
        if (!options.onError) throw error;
        return options.onError(error);
      }
      await tellNotRecorded(body, client, error).catch((e: unknown) => options.onError?.(e));
    }
  };
}

/** `client` whose chat.postMessage / chat.update wait for `confirm` first (a fresh confirm per call). */
function gatedClient(client: WebClient, confirm: () => Promise<void>): WebClient {
  const chat = new Proxy(client.chat, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof name !== 'string' || !SHOWING.has(name) || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await confirm();
        return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  });
  return new Proxy(client, {
    get: (target, name, receiver) => (name === 'chat' ? chat : Reflect.get(target, name, receiver)),
  });
}

/**
 * The clicker's ephemeral answer. The click reached the Redis master but no replica confirmed it: a failover now
 * would lose it, so it is not shown as done. (If the master survives it does take effect — the next click says so.)
 */
function notRecordedText(error: NotReplicatedError): string {
  return `⚠️ Your click was not recorded: it could not be confirmed as stored on a Redis replica (${error.message}), so nothing is shown as done. Click again in a moment to check.`;
}

async function tellNotRecorded(
  body: BlockAction,
  client: WebClient,
  error: NotReplicatedError,
): Promise<void> {
  await client.chat.postEphemeral({
    channel: clickedMessage(body).channel,
    user: body.user.id,
    text: notRecordedText(error),
  });
}
