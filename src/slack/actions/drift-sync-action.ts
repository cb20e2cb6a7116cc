/**
 * The drift notice's Sync button (`wavesync_drift_sync`, value = Application name): one sync per notice. The
 * first click, by anyone on any bot replica, claims the notice (DriftNoticeClaims, in Redis) and is the same as
 * the clicking user typing `/sync <app>` in the notice's channel — the header is posted there, and the
 * environment's request rules and approval apply to that click. The request key is the notice's (channel and
 * message ts), not the clicker's. Every later click gets an ephemeral "already queued by @X" (or "already
 * running") and queues nothing; a first click that queued nothing (refused, header not posted, queue down) gives
 * the claim up, so the next click may try. Identity comes from the signed payload's `user`; the clicker's request
 * policy (`sync` permission, channel, freeze) is checked before anything is claimed or posted (refusal: ephemeral).
 * Then the click must name the Application's open drift notice (the one drift detection saved, by channel and ts):
 * a click on a notice whose drift has ended, or on a message that never was one (a forged click), is refused as
 * stale — ephemerally, nothing queued.
 */
import type { RespondFn } from '@slack/bolt';
import type { DriftNoticeClaims, DriftNoticeClicker } from '../../drift/index.js';
import { type ActionArgs, ephemeral } from '../commands/command-context.js';
import { parseSyncArgs } from '../commands/parse-sync-args.js';
import { queueUnavailable } from '../commands/queue-unavailable.js';
import { driftNoticeKeyOf } from '../commands/request-key.js';
import { requestPolicy, verdictOf } from '../commands/request-refusal.js';
import { acceptedText, startSync } from '../commands/start-sync-command.js';
import { textMessage } from '../messages/block.js';
import { escapeMrkdwn } from '../messages/format.js';
import type { SyncQueueClient } from '../ports.js';
import { clickedMessage } from '../slack-payloads.js';

/** The audit log's `trigger` of a sync requested from a drift notice. */
const DRIFT_TRIGGER = 'drift notice Sync button';

export async function driftSyncAction(args: ActionArgs & { claims: DriftNoticeClaims }): Promise<void> {
  const { body, action, respond, deps, recent, claims } = args;
  const reply = (message: ReturnType<typeof textMessage>) =>
    respond({ ...ephemeral(message), replace_original: false });
  const application = action.value ?? '';
  const { channel, ts: messageTs } = clickedMessage(body);
  if (!deps.catalog.describe(application)) {
    return void (await reply(
      textMessage(`I no longer know an application named *${escapeMrkdwn(application)}*.`),
    ));
  }
  const parsed = parseSyncArgs([]);
  if (!parsed.ok) return;
  // A stage pinned by a promotion drifted from its pinned revision: Sync restores that revision, not the branch head.
  let pinned: string | undefined;
  try {
    pinned = (await deps.promotion?.store.pin(application))?.revision;
  } catch (err) {
    return queueUnavailable(
      { respond: (m) => respond(typeof m === 'string' ? m : { ...m, replace_original: false }), deps },
      err,
    );
  }
  if (pinned !== undefined) parsed.operation = { ...parsed.operation, revision: pinned };
  const notice = driftNoticeKeyOf(body.team?.id ?? body.user.team_id ?? '', channel, messageTs, application);
  const initiator = { userId: body.user.id, userName: body.user.username ?? body.user.name ?? body.user.id };
  const policy = await requestPolicy(deps, {
    application,
    operation: parsed.operation,
    initiator,
    channel,
  });
  if (policy.refusal) return void (await reply(policy.refusal));
  const keep = (m: Parameters<RespondFn>[0]) =>
    respond(typeof m === 'string' ? m : { ...m, replace_original: false });
  let first: DriftNoticeClicker | undefined;
  try {
    const open = await deps.driftNotices?.get(application);
    if (!open || open.channel !== channel || open.ts !== messageTs) {
      return void (await reply(staleNotice(application)));
    }
    first = await claims.claim(notice, initiator);
  } catch (err) {
    return queueUnavailable({ respond: keep, deps }, err);
  }
  if (first) return void (await reply(await alreadyFromNotice(deps.queue, application, first)));
  const requestKey = `slack-drift:${notice}`;
  recent.claim(requestKey); // the notice's claim above is the guard; startSync releases this one on failure
  const awaitsApproval = deps.approvals?.needsApproval?.(application) === true;
  await reply(textMessage(acceptedText(application, parsed.operation, awaitsApproval)));
  const outcome = await startSync(
    { respond, client: args.client, deps, recent, channel, ...verdictOf(policy) },
    { application, operation: parsed.operation, initiator, requestKey, trigger: DRIFT_TRIGGER },
  );
  if (outcome === 'refused' || outcome === 'not_queued')
    await claims
      .release(notice)
      .catch((err: unknown) => deps.logger?.warn({ err }, 'drift claim not released'));
}

/** The answer to a click that names no open drift notice of `application`. */
function staleNotice(application: string) {
  const app = escapeMrkdwn(application);
  return textMessage(
    `This drift notice of *${app}* is no longer open (its drift ended, or it is not a drift notice); nothing was queued. To sync, use \`/sync ${app}\`.`,
  );
}

/**
 * The answer to a click on a notice someone already clicked: `already running` while a sync of the Application
 * is running, else `already queued by @X` (queued, waiting for approval, or done: the notice queues one sync).
 */
async function alreadyFromNotice(
  queue: Pick<SyncQueueClient, 'applicationStatus'>,
  application: string,
  first: DriftNoticeClicker,
) {
  const running = await queue.applicationStatus(application).then(
    (jobs) => jobs.some((j) => j.state === 'active'),
    () => false,
  );
  const app = `*${escapeMrkdwn(application)}*`;
  const by = `<@${first.userId}>`;
  return textMessage(
    running
      ? `A sync of ${app} is already running (requested from this notice by ${by}); nothing more was queued.`
      : `Already queued by ${by}: this notice's sync of ${app}. Nothing more was queued; to sync again, use \`/sync ${escapeMrkdwn(application)}\`.`,
  );
}
