/**
 * `/sync pipeline <pipeline|app>` (docs/promotion.md): the stages of a promotion pipeline and what waits to be
 * promoted, ephemeral. A stage the user may not `read` from this channel shows its name only; a Promote button is
 * shown on a stage whose next stage is behind when the user may sync that next stage here (the click asks again).
 */
import {
  type Pipeline,
  type PromotionStore,
  resolvePipeline,
  type VerifiedRevision,
} from '../../promotion/index.js';
import { textMessage } from '../messages/block.js';
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
import { USAGE } from '../messages/help-blocks.js';
import { pipelineBlocks, type StageView } from '../messages/pipeline-blocks.js';
import { type CommandContext, ephemeral, initiatorOf } from './command-context.js';
import { readRefusal } from './history-command.js';
import { queueUnavailable } from './queue-unavailable.js';
import { tooManyArguments } from './too-many-arguments.js';

export async function pipelineCommand(ctx: CommandContext): Promise<void> {
  const [name, ...extra] = ctx.args;
  if (extra.length > 0) return ctx.ack(ephemeral(tooManyArguments(extra, USAGE.pipeline)));
  if (name === undefined) {
    return ctx.ack(
      ephemeral(
        commandErrorBlocks({
          problem: 'Which pipeline? Name one (or one of its stages).',
          usage: USAGE.pipeline,
        }),
      ),
    );
  }
  const promotion = ctx.deps.promotion;
  const pipeline = promotion && resolvePipeline(promotion.settings, name);
  if (!promotion || !pipeline) {
    const names = Object.keys(promotion?.settings.promotion.pipelines ?? {});
    return ctx.ack(
      ephemeral(
        textMessage(
          `🚫 No promotion pipeline named ${escapeMrkdwn(name)} (wavesync.yaml promotion.pipelines: ${names.length ? escapeMrkdwn(names.join(', ')) : 'none'}).`,
        ),
      ),
    );
  }
  await ctx.ack();
  try {
    const views = await stageViews(ctx, promotion.store, pipeline);
    await ctx.respond(ephemeral(pipelineBlocks(pipeline, views, Date.now())));
  } catch (err) {
    await queueUnavailable(ctx, err);
  }
}

async function stageViews(
  ctx: CommandContext,
  store: PromotionStore,
  pipeline: Pipeline,
): Promise<StageView[]> {
  const records = await Promise.all(
    pipeline.stages.map(async (stage) => {
      const [current, verified, pin, refused] = await Promise.all([
        store.stage(stage),
        store.verified(stage),
        store.pin(stage),
        readRefusal(ctx, stage),
      ]);
      return { stage, current, verified, pin, hidden: refused !== undefined };
    }),
  );
  return Promise.all(
    records.map(async (r, i) => {
      const next = records[i + 1];
      const waiting = next ? waitingFor(r.verified, next.current?.revision) : [];
      const promoteTo =
        next &&
        !r.hidden &&
        !next.hidden &&
        waiting.length > 0 &&
        (await maySync(ctx, pipeline.name, next.stage, waiting[0]!))
          ? next.stage
          : undefined;
      if (r.hidden) return { stage: r.stage, hidden: true, verified: [], waiting: [] };
      const live = r.current && (await liveOf(ctx, r.stage, r.current.revision));
      return {
        ...(live ? { live } : {}),
        stage: r.stage,
        verified: r.verified,
        waiting,
        ...(r.current ? { current: r.current } : {}),
        ...(r.pin ? { pin: r.pin } : {}),
        ...(promoteTo ? { promoteTo } : {}),
      };
    }),
  );
}

/** The stage's live state against `revision` (bounded: a slow cluster or render does not hold the reply). */
async function liveOf(ctx: CommandContext, stage: string, revision: string): Promise<StageView['live']> {
  const observe = ctx.deps.promotion?.observe;
  if (!observe) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer within 10 s')), LIVE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([observe(stage, revision), late]);
  } catch (err) {
    return { error: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

const LIVE_TIMEOUT_MS = 10_000;

/** The verified revisions newer than the one the next stage runs (all of them when it runs none of them). */
function waitingFor(
  verified: readonly VerifiedRevision[],
  nextRevision: string | undefined,
): VerifiedRevision[] {
  const seen = new Set<string>();
  const newer: VerifiedRevision[] = [];
  for (const v of verified) {
    if (v.revision === nextRevision) break;
    if (!seen.has(v.revision)) newer.push(v);
    seen.add(v.revision);
  }
  return newer;
}

/** Whether the request policy lets this user sync `stage` to `revision` from here (not audited: only a look). */
async function maySync(
  ctx: CommandContext,
  pipeline: string,
  stage: string,
  top: VerifiedRevision,
): Promise<boolean> {
  const check = ctx.deps.approvals?.policy;
  if (!check) return true;
  const checked = await check(
    {
      application: stage,
      operation: { revision: top.revision, prune: false, dryRun: false, syncOptions: [] },
      initiator: initiatorOf(ctx.command),
      channel: ctx.command.channel_id,
      promotion: { pipeline, from: top.stage, revision: top.revision },
    },
    { audit: false },
  ).catch(() => ({ allowed: false }));
  return checked.allowed;
}
