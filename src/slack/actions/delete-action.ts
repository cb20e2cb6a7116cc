import { confirmationKeys, planHash } from '../../deletion/index.js';
import { type ActionArgs, ephemeral } from '../commands/command-context.js';
import { confirmationOf, decodeDeletionButtonValue, planOrExplain } from '../commands/delete-command.js';
import { requestKeyOfDeletion } from '../commands/request-key.js';
import { requestPolicy, verdictOf } from '../commands/request-refusal.js';
import { startSync } from '../commands/start-sync-command.js';
import { textMessage } from '../messages/block.js';
import { deletionPlanView } from '../messages/deletion-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
import { clickedMessage } from '../slack-payloads.js';

/** Cancel: the confirmation is replaced by a note; nothing was requested. */
export async function cancelDeletionAction({ action, respond }: ActionArgs): Promise<void> {
  const value = decodeDeletionButtonValue(action.value);
  const app = value ? ` of *${escapeMrkdwn(value.application)}*` : '';
  await respond({
    ...ephemeral(textMessage(`Cancelled: nothing was deleted${app}.`)),
    replace_original: true,
  });
}

/** Delete: re-plan, and submit when the plan is the one shown. */
export async function confirmDeletionAction({
  body,
  action,
  respond,
  client,
  deps,
  recent,
}: ActionArgs): Promise<void> {
  const value = decodeDeletionButtonValue(action.value);
  const { channel } = clickedMessage(body);
  if (!value) {
    return void (await respond({
      ...ephemeral(textMessage('This button does not belong to a wavesync deletion; nothing was deleted.')),
      replace_original: false,
    }));
  }
  const { application, cascade, breakGlassReason } = value;
  if (!deps.catalog.describe(application)) {
    const text = `No application named "${escapeMrkdwn(application)}" any more; nothing was deleted.`;
    return void (await respond({ ...ephemeral(textMessage(text)), replace_original: true }));
  }
  const initiator = { userId: body.user.id, userName: body.user.username ?? body.user.name ?? body.user.id };
  const policy = await requestPolicy(deps, {
    application,
    action: 'delete',
    initiator,
    channel,
    ...(breakGlassReason ? { breakGlassReason } : {}),
  });
  if (policy.refusal) return void (await respond({ ...ephemeral(policy.refusal), replace_original: false }));
  const plan = await planOrExplain(deps, application, cascade);
  if (typeof plan === 'string') {
    return void (await respond({ ...ephemeral(textMessage(plan)), replace_original: true }));
  }
  if (planHash(plan) !== value.planHash) {
    const changed = confirmationOf(plan, {
      application,
      ...(cascade ? { cascade } : {}),
      ...(breakGlassReason ? { breakGlassReason } : {}),
    });
    const note = textMessage(
      '♻️ The cluster changed since you looked: here is the new plan. Nothing was deleted.',
    );
    return void (await respond({
      ...ephemeral({ text: note.text, blocks: [...note.blocks, ...changed.blocks] }),
      replace_original: true,
    }));
  }
  await respond({
    ...ephemeral(
      textMessage(
        `Got it: deleting *${escapeMrkdwn(application)}*. Progress is in the thread under the header below.`,
      ),
    ),
    replace_original: true,
  });
  const requestKey = requestKeyOfDeletion(body, channel, application, value.planHash);
  if (recent.claim(requestKey)) return; // a double click: the first one is already under way
  await startSync(
    { channel, client, respond, deps, recent, ...verdictOf(policy) },
    {
      application,
      initiator,
      requestKey,
      deletion: {
        // Only the Delete=confirm objects the confirmation named count as confirmed; the worker runs this plan only.
        request: {
          confirmed: confirmationKeys(deletionPlanView(plan).confirmShown),
          planHash: value.planHash,
          ...(cascade ? { cascade } : {}),
        },
        plan,
      },
      ...(breakGlassReason ? { breakGlassReason } : {}),
    },
  );
}
