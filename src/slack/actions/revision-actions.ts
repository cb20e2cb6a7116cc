/**
 * The buttons of a "main moved to 3f9c2e1" message (src/revisions, non-automated Applications):
 *
 * - Sync (`wavesync_revision_sync`, value `<application> <revision>`): the same as the clicking user typing
 *   `/sync <app> --revision <revision>` in the message's channel — the environment's request rules and approval
 *   apply to that click, checked before anything is claimed or posted. One sync per message: the first click, by
 *   anyone on any bot replica, claims it (Redis click claims); later clicks are told who did. The click must name
 *   the Application's newest such message (RevisionNoticeRefs): a message a newer revision superseded, or one that
 *   never was one (a forged click), is refused as stale, nothing queued.
 * - Diff (`wavesync_revision_diff`): the live diff of that revision against the cluster, ephemeral, for whoever may
 *   dry-run the Application (the same as `/sync diff <app> --revision <revision>`).
 */
import type { ClickClaims } from '../../queue/index.js';
import type { RevisionNoticeRefs } from '../../revisions/index.js';
import { type ActionArgs, ephemeral } from '../commands/command-context.js';
import { liveDiffReply } from '../commands/diff-command.js';
import { queueUnavailable } from '../commands/queue-unavailable.js';
import { driftNoticeKeyOf } from '../commands/request-key.js';
import { requestPolicy, verdictOf } from '../commands/request-refusal.js';
import { acceptedText, startSync } from '../commands/start-sync-command.js';
import { textMessage } from '../messages/block.js';
import { escapeMrkdwn } from '../messages/format.js';
import { parseRevisionButtonValue } from '../messages/revision-notice-blocks.js';
import { clickedMessage } from '../slack-payloads.js';

/** The audit log's `trigger` of a sync requested from a "main moved" message. */
const REVISION_TRIGGER = 'new revision Sync button';

export interface RevisionActionDeps {
  claims: ClickClaims;
  notices: Pick<RevisionNoticeRefs, 'get'> | undefined;
}

export async function revisionSyncAction(args: ActionArgs & RevisionActionDeps): Promise<void> {
  const { body, action, respond, deps, recent, claims } = args;
  const reply = (message: ReturnType<typeof textMessage>) =>
    respond({ ...ephemeral(message), replace_original: false });
  const value = parseRevisionButtonValue(action.value);
  if (!value || !deps.catalog.describe(value.application)) {
    return void (await reply(
      textMessage('I no longer know the application of this message; nothing was queued.'),
    ));
  }
  const { application, revision } = value;
  // Several sources have no one revision to pin: the sync takes each source's targetRevision.
  const operation = {
    ...(revision.includes(';') ? {} : { revision }),
    prune: false,
    dryRun: false,
    syncOptions: [],
  };
  const { channel, ts } = clickedMessage(body);
  const initiator = { userId: body.user.id, userName: body.user.username ?? body.user.name ?? body.user.id };
  const policy = await requestPolicy(deps, { application, operation, initiator, channel });
  if (policy.refusal) return void (await reply(policy.refusal));
  const keep = (m: Parameters<typeof respond>[0]) =>
    respond(typeof m === 'string' ? m : { ...m, replace_original: false });
  const notice = driftNoticeKeyOf(body.team?.id ?? body.user.team_id ?? '', channel, ts, application);
  let first: { userId: string } | undefined;
  try {
    const open = await args.notices?.get(application);
    if (!open || open.channel !== channel || open.ts !== ts || open.revision !== revision) {
      const app = escapeMrkdwn(application);
      return void (await reply(
        textMessage(
          `This message of *${app}* is no longer the newest revision (or it is not one of mine); nothing was queued. To sync, use \`/sync ${app}\`.`,
        ),
      ));
    }
    first = await claims.claim(`revision:${notice}`, initiator);
  } catch (err) {
    return queueUnavailable({ respond: keep, deps }, err);
  }
  if (first) {
    return void (await reply(
      textMessage(`Already requested by <@${first.userId}> from this message; nothing more was queued.`),
    ));
  }
  const requestKey = `slack-revision:${notice}`;
  recent.claim(requestKey);
  const awaitsApproval = deps.approvals?.needsApproval?.(application) === true;
  await reply(textMessage(acceptedText(application, operation, awaitsApproval)));
  const outcome = await startSync(
    { respond, client: args.client, deps, recent, channel, ...verdictOf(policy) },
    { application, operation, initiator, requestKey, trigger: REVISION_TRIGGER },
  );
  if (outcome === 'refused' || outcome === 'not_queued')
    await claims
      .release(`revision:${notice}`)
      .catch((err: unknown) => deps.logger?.warn({ err }, 'revision claim not released'));
}

export async function revisionDiffAction(args: ActionArgs): Promise<void> {
  const { body, action, respond, deps } = args;
  const value = parseRevisionButtonValue(action.value);
  if (!value) return;
  const { channel } = clickedMessage(body);
  const command = {
    user_id: body.user.id,
    user_name: body.user.username ?? body.user.name ?? body.user.id,
    channel_id: channel,
  } as Parameters<typeof liveDiffReply>[0]['command'];
  const operation = {
    ...(value.revision.includes(';') ? {} : { revision: value.revision }),
    prune: false,
    dryRun: true,
    syncOptions: [],
  };
  const reply = await liveDiffReply({ command, deps }, value.application, operation);
  await respond({ ...ephemeral(reply), replace_original: false });
}
