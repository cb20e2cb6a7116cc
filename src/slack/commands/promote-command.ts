/**
 * `/sync promote <pipeline> [--from STAGE] [--to STAGE] [--revision REV] [--prune] [--break-glass "reason"]`
 * (docs/promotion.md): sync the next stage of a promotion pipeline to exactly the revision the stage before it
 * synced and verified — pinned, not the branch head — as a sync of that stage in every other respect: its `sync`
 * permission (ephemeral refusals), freeze windows, approval (the approval message says what is promoted and how it
 * was verified, with the live diff), header and thread. What to promote is src/promotion's planPromotion; an
 * unverified revision is refused with why, unless `--break-glass "reason"` (audited) where the stage is in an
 * environment. The Promote button of `/sync pipeline` runs the same path.
 */

import { parseArgs } from 'node:util';
import type { Initiator } from '../../domain/index.js';
import type { PolicyVerdict } from '../../environments/index.js';
import { type PromoteAsk, planPromotion } from '../../promotion/index.js';
import { textMessage } from '../messages/block.js';
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
import { USAGE } from '../messages/help-blocks.js';
import { promotionTitle } from '../messages/sync-header-blocks.js';
import { type CommandContext, ephemeral, initiatorOf, type PromotionDeps } from './command-context.js';
import { queueUnavailable } from './queue-unavailable.js';
import { requestKeyOf } from './request-key.js';
import { requestPolicy, verdictOf } from './request-refusal.js';
import { acceptCommand, type SyncStart } from './start-sync-command.js';

export async function promoteCommand(ctx: CommandContext): Promise<void> {
  const parsed = parsePromoteArgs(ctx.args);
  if (!parsed.ok)
    return ctx.ack(ephemeral(commandErrorBlocks({ problem: parsed.problem, usage: USAGE.promote })));
  const promotion = ctx.deps.promotion;
  if (!promotion) return ctx.ack(ephemeral(noPipelines()));
  const initiator = initiatorOf(ctx.command);
  let prepared: Prepared;
  try {
    prepared = await preparePromotion(ctx.deps, promotion, parsed.ask, initiator, ctx.command.channel_id);
  } catch (err) {
    await ctx.ack();
    return queueUnavailable(ctx, err);
  }
  if (!prepared.ok) return ctx.ack(ephemeral(prepared.reply));
  const key = requestKeyOf(
    ctx.command,
    prepared.input.application,
    prepared.input.operation,
    parsed.ask.breakGlassReason,
  );
  await acceptCommand(
    ctx,
    { ...prepared.input, requestKey: `promote-${key}` },
    prepared.accepted,
    prepared.verdict,
  );
}

type Prepared =
  /** `verdict`: the request policy's, for the gate (SyncStartContext.verdict). */
  | { ok: true; input: Omit<SyncStart, 'requestKey'>; accepted: string; verdict?: PolicyVerdict }
  | { ok: false; reply: ReturnType<typeof textMessage> };

/**
 * What to promote and whether this user may, here and now: the plan (refused with why), then the target stage's
 * request policy (`sync`). Shared by `/sync promote` and the Promote button.
 * @throws what the promotion store throws (Redis unavailable).
 */
export async function preparePromotion(
  deps: CommandContext['deps'],
  promotion: PromotionDeps,
  ask: PromoteAsk & { prune?: boolean },
  initiator: Initiator,
  channel: string,
  fromBotMessage = false,
): Promise<Prepared> {
  const plan = await planPromotion(promotion, ask);
  if (!plan.ok)
    return { ok: false, reply: textMessage(`🚫 ${escapeMrkdwn(plan.problem)} Nothing was queued.`) };
  const operation = { revision: plan.revision, prune: ask.prune ?? false, dryRun: false, syncOptions: [] };
  const breakGlass = ask.breakGlassReason === undefined ? {} : { breakGlassReason: ask.breakGlassReason };
  const policy = await requestPolicy(deps, {
    application: plan.to,
    operation,
    initiator,
    channel,
    promotion: plan.ref,
    ...breakGlass,
    ...(fromBotMessage ? { fromBotMessage } : {}),
  });
  if (policy.refusal) return { ok: false, reply: policy.refusal };
  const waits = deps.approvals?.needsApproval?.(plan.to) === true;
  const how = plan.ref.unverified ? 'NOT verified (break glass)' : plan.ref.verified;
  const next = waits
    ? 'It waits for approval: the request is the header below.'
    : 'Progress is in the thread under the header below.';
  return {
    ok: true,
    input: {
      application: plan.to,
      operation,
      initiator,
      promotion: plan.ref,
      ...breakGlass,
      ...(fromBotMessage ? { fromBotMessage, trigger: 'pipeline Promote button' } : {}),
    },
    ...verdictOf(policy),
    accepted: `Got it: ${promotionTitle(plan.ref)} to *${escapeMrkdwn(plan.to)}* (${escapeMrkdwn(how ?? '')}). ${next}`,
  };
}

function noPipelines() {
  return textMessage(
    '🚫 No promotion pipelines are configured: add `promotion.pipelines` to wavesync.yaml (docs/promotion.md).',
  );
}

type ParsedPromote = { ok: true; ask: PromoteAsk & { prune: boolean } } | { ok: false; problem: string };

function parsePromoteArgs(args: readonly string[]): ParsedPromote {
  let values: { from?: string; to?: string; revision?: string; prune?: boolean; 'break-glass'?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: {
        from: { type: 'string' },
        to: { type: 'string' },
        revision: { type: 'string' },
        prune: { type: 'boolean' },
        'break-glass': { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    }));
  } catch (err) {
    return { ok: false, problem: escapeMrkdwn((err as Error).message) };
  }
  const [name, ...extra] = positionals;
  if (name === undefined) return { ok: false, problem: 'Which pipeline? Name one (or one of its stages).' };
  if (extra.length) return { ok: false, problem: `Too many words: ${escapeMrkdwn(extra.join(' '))}.` };
  const empty = (['from', 'to', 'revision'] as const).find(
    (k) => values[k] !== undefined && values[k].trim() === '',
  );
  if (empty) return { ok: false, problem: `--${empty} needs a value.` };
  return {
    ok: true,
    ask: {
      name,
      prune: values.prune ?? false,
      ...(values.from === undefined ? {} : { from: values.from }),
      ...(values.to === undefined ? {} : { to: values.to }),
      ...(values.revision === undefined ? {} : { revision: values.revision }),
      ...(values['break-glass'] === undefined ? {} : { breakGlassReason: values['break-glass'] }),
    },
  };
}
