/**
 * The Promote button of `/sync pipeline`: the value only locates (pipeline, stages, revision); the click plans the
 * promotion again (still verified? the next stage still behind?) and asks the target stage's request policy for the
 * clicking user and channel, exactly as `/sync promote … --to STAGE --revision R` typed by them.
 */
import { type ActionArgs, ephemeral } from '../commands/command-context.js';
import { preparePromotion } from '../commands/promote-command.js';
import { requestKeyOfPromotion } from '../commands/request-key.js';
import { verdictOf } from '../commands/request-refusal.js';
import { startSync } from '../commands/start-sync-command.js';
import { textMessage } from '../messages/block.js';
import { escapeMrkdwn } from '../messages/format.js';
import type { PromoteButtonValue } from '../messages/pipeline-blocks.js';
import { clickedMessage } from '../slack-payloads.js';

export async function promoteAction({
  body,
  action,
  respond,
  client,
  deps,
  recent,
}: ActionArgs): Promise<void> {
  const value = decode(action.value);
  const promotion = deps.promotion;
  const tell = (text: string) => respond({ ...ephemeral(textMessage(text)), replace_original: false });
  if (!value || !promotion)
    return void (await tell('This button does not belong to a wavesync pipeline; nothing was promoted.'));
  const { channel } = clickedMessage(body);
  const initiator = { userId: body.user.id, userName: body.user.username ?? body.user.name ?? body.user.id };
  const target = await promotion.store.stage(value.t);
  if (target?.revision === value.r && target.status !== 'failed') {
    return void (await tell(`*${escapeMrkdwn(value.t)}* already runs that revision; nothing was promoted.`));
  }
  const prepared = await preparePromotion(
    deps,
    promotion,
    { name: value.p, from: value.f, to: value.t, revision: value.r },
    initiator,
    channel,
    true,
  );
  if (!prepared.ok) return void (await respond({ ...ephemeral(prepared.reply), replace_original: false }));
  const requestKey = requestKeyOfPromotion(body, channel, value.t, value.r);
  if (recent.claim(requestKey)) return;
  await tell(prepared.accepted);
  await startSync(
    { channel, client, respond, deps, recent, ...verdictOf(prepared) },
    { ...prepared.input, requestKey },
  );
}

function decode(raw: string | undefined): PromoteButtonValue | undefined {
  try {
    const v = JSON.parse(raw ?? '') as Partial<PromoteButtonValue>;
    const ok = [v.p, v.f, v.t, v.r].every((x) => typeof x === 'string' && x.length > 0 && x.length < 300);
    return ok ? (v as PromoteButtonValue) : undefined;
  } catch {
    return undefined;
  }
}
