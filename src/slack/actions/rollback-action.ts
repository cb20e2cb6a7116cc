/**
 * The **Roll back** button (`wavesync_rollback`) on a failed sync's summary and on a failure notice: the clicking
 * user runs `/sync rollback <app>` in the channel of the click, to the newest Succeeded history entry before the
 * failed operation the button belongs to. Authorized exactly like the command — the `rollback` permission of the
 * signed payload's user and channel, freeze windows, approval (requestPolicy → authorizeAction, evaluated once: the
 * gate takes its verdict; refusals are ephemeral, nothing posted) — and refused the same way for automated-sync
 * Applications and local folders. One rollback per failure: the first allowed click on any Roll back button of the
 * failed job (its summary, its notices), by anyone on any bot replica, claims it (SET NX in Redis on the failed job
 * id and the target entry, as the drift notice's Sync does); every later click is told ephemerally who started it
 * and queues nothing. A first click that queued nothing (refused by the gate, header not posted, queue down) gives
 * the claim up. The button must name a sync of its Application that wavesync knows (in its history, or still in the
 * queue); a click naming another (a forged value) is refused as stale, nothing queued.
 */
import type { RespondFn } from '@slack/bolt';
import type { ClickClaims, Clicker } from '../../queue/index.js';
import {
  promotionUndone,
  rollbackClaim,
  rollbackOperation,
  rollbackRefusal,
  rollbackTargetOfFailure,
  UNKNOWN_REVISION,
} from '../../rollback/index.js';
import { type ActionArgs, ephemeral } from '../commands/command-context.js';
import { queueUnavailable } from '../commands/queue-unavailable.js';
import { requestPolicy, verdictOf } from '../commands/request-refusal.js';
import { rollbackAcceptedText } from '../commands/rollback-command.js';
import { startSync } from '../commands/start-sync-command.js';
import { textMessage } from '../messages/block.js';
import { escapeMrkdwn } from '../messages/format.js';
import { decodeRollbackButtonValue } from '../messages/rollback-button.js';
import { rollbackTitle } from '../messages/sync-header-blocks.js';
import { clickedMessage } from '../slack-payloads.js';

/** The audit log's `trigger` of a rollback requested with the button. */
const ROLLBACK_BUTTON_TRIGGER = 'Roll back button';

/** `claims`: who started each failure's rollback first (redisClickClaims, shared by the bot replicas). */
export async function rollbackAction(args: ActionArgs & { claims: ClickClaims }): Promise<void> {
  const { body, action, respond, deps, recent, claims } = args;
  const reply = (text: string) => respond({ ...ephemeral(textMessage(text)), replace_original: false });
  const value = decodeRollbackButtonValue(action.value);
  const { channel } = clickedMessage(body);
  const app = value && deps.catalog.describe(value.application);
  if (!value || !app) {
    const name = value ? ` named *${escapeMrkdwn(value.application)}*` : '';
    return void (await reply(`I no longer know an application${name}; nothing was queued.`));
  }
  const application = app.name;
  const cannot = rollbackRefusal(app);
  if (cannot) return void (await reply(`🚫 ${escapeMrkdwn(cannot)} Nothing was queued.`));
  const initiator = { userId: body.user.id, userName: body.user.username ?? body.user.name ?? body.user.id };
  // Who may roll back, from where, now — asked before the history is read (the target revision plays no part, so
  // the gate takes this verdict for the entry's revision).
  const policy = await requestPolicy(deps, {
    application,
    operation: rollbackOperation(UNKNOWN_REVISION),
    initiator,
    channel,
    action: 'rollback',
    fromBotMessage: true,
  });
  if (policy.refusal) return void (await respond({ ...ephemeral(policy.refusal), replace_original: false }));
  const keep = (m: Parameters<RespondFn>[0]) =>
    respond(typeof m === 'string' ? m : { ...m, replace_original: false });
  let choice: Awaited<ReturnType<typeof rollbackTargetOfFailure>>;
  try {
    choice = await rollbackTargetOfFailure(deps.queue, application, value.jobId);
  } catch (err) {
    return queueUnavailable({ respond: keep, deps }, err);
  }
  if (choice === undefined) {
    return void (await reply(
      `This Roll back button names no sync of *${escapeMrkdwn(application)}* that wavesync knows of; nothing was queued. To roll back, use \`/sync rollback ${escapeMrkdwn(application)}\`.`,
    ));
  }
  if (!choice.ok)
    return void (await reply(
      `Cannot roll back *${escapeMrkdwn(application)}*: ${escapeMrkdwn(choice.problem)}`,
    ));
  const { entry } = choice;
  const operation = rollbackOperation(entry.revision, false, entry.source, entry.sources);
  const undoes = promotionUndone(choice.history, entry.id);
  const rollback = { id: entry.id, revision: entry.revision, ...(undoes ? { undoes } : {}) };
  // One rollback per failure, whoever clicks where: the failed job (all its buttons) and the entry it returns to.
  const claim = rollbackClaim(body.team?.id ?? body.user.team_id ?? '', application, value.jobId, entry.id);
  let first: Clicker | undefined;
  try {
    first = await claims.claim(claim, initiator);
  } catch (err) {
    return queueUnavailable({ respond: keep, deps }, err);
  }
  if (first) {
    const by = first.userId === initiator.userId ? 'You' : `<@${first.userId}>`;
    return void (await reply(
      `${by} already started ${rollbackTitle(rollback)} of *${escapeMrkdwn(application)}* from this failure; nothing more was queued.`,
    ));
  }
  const requestKey = `slack-rollback-button:${claim}`;
  recent.claim(requestKey); // the claim above is the guard; startSync releases this one on failure
  await reply(rollbackAcceptedText(deps, application, rollback));
  const outcome = await startSync(
    { respond, client: args.client, deps, recent, channel, ...verdictOf(policy) },
    {
      application,
      operation,
      initiator,
      requestKey,
      rollback,
      trigger: ROLLBACK_BUTTON_TRIGGER,
      fromBotMessage: true,
    },
  );
  if (outcome === 'refused' || outcome === 'not_queued')
    await claims
      .release(claim)
      .catch((err: unknown) => deps.logger?.warn({ err }, 'rollback claim not released'));
}
