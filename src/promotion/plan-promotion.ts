/**
 * What `/sync promote <pipeline> [--from STAGE] [--to STAGE] [--revision R] [--break-glass "reason"]` promotes:
 * which stage to which (one step: the next stage), and the exact revision — the one the source stage last synced,
 * if that sync was verified, or the verified revision `--revision` names. A revision that was not verified in the
 * source stage is refused, saying why (still being verified and for how long yet, its sync failed, never synced
 * there); `--break-glass "reason"` promotes it all the same, marked unverified (the request path audits it, and
 * only where the target stage is in an environment: where break-glass and the audit log are).
 */
import { type PromotionRef, splitRevisions } from '../domain/index.js';
import type { Settings } from '../settings/index.js';
import { type Pipeline, resolvePipeline } from './pipelines.js';
import {
  formatDuration,
  type PromotionStore,
  type StageSync,
  type VerifiedRevision,
  verificationText,
} from './stage-records.js';

export interface PromoteAsk {
  /** A pipeline's name, or one of its stages. */
  name: string;
  from?: string;
  to?: string;
  revision?: string;
  breakGlassReason?: string;
}

export type PromotionPlan =
  | { ok: true; pipeline: Pipeline; from: string; to: string; revision: string; ref: PromotionRef }
  | { ok: false; problem: string };

export interface PlanPromotionDeps {
  settings: Pick<Settings, 'promotion'>;
  store: Pick<PromotionStore, 'stage' | 'verified'>;
  /** Whether the target stage is in an environment (break-glass exists there). */
  inEnvironment(application: string): boolean;
  now?: () => number;
}

const refuse = (problem: string): PromotionPlan => ({ ok: false, problem });

export async function planPromotion(deps: PlanPromotionDeps, ask: PromoteAsk): Promise<PromotionPlan> {
  const pipeline = resolvePipeline(deps.settings, ask.name);
  if (!pipeline) {
    const names = Object.keys(deps.settings.promotion.pipelines);
    return refuse(
      `No promotion pipeline named ${ask.name} (wavesync.yaml promotion.pipelines: ${names.length ? names.join(', ') : 'none'}).`,
    );
  }
  const pair = await choosePair(deps, pipeline, ask);
  if ('problem' in pair) return refuse(pair.problem);
  const { from, to } = pair;
  const [current, verified] = await Promise.all([deps.store.stage(from), deps.store.verified(from)]);
  const wanted = ask.revision ?? current?.revision;
  if (wanted === undefined) {
    return refuse(
      `${from} has no sync recorded since it became a stage of ${pipeline.name}: nothing to promote.`,
    );
  }
  const record = verified.find((v) => matches(v.revision, wanted));
  const base = { pipeline: pipeline.name, from };
  if (record) {
    const ref = { ...base, revision: record.revision, verified: verificationText(record) };
    return { ok: true, pipeline, from, to, revision: record.revision, ref };
  }
  const why = unverifiedWhy(deps, pipeline, from, wanted, current, verified);
  if (ask.breakGlassReason === undefined) {
    return refuse(
      `${why} Promote a verified revision, or break glass: ${commandOf(pipeline, to)} --break-glass "reason".`,
    );
  }
  if (ask.breakGlassReason.trim() === '') {
    return refuse(
      `Break glass needs a reason: ${commandOf(pipeline, to)} --break-glass "why this cannot wait".`,
    );
  }
  if (!deps.inEnvironment(to)) {
    return refuse(
      `${why} Break glass is only for stages in an environment (wavesync.yaml environments:, where requests are audited); ${to} is in none.`,
    );
  }
  // Only a revision the source stage synced can be promoted unverified: it ran somewhere first.
  const revision = current && matches(current.revision, wanted) ? current.revision : undefined;
  if (revision === undefined) return refuse(`${why} Break glass promotes only what ${from} synced last.`);
  return {
    ok: true,
    pipeline,
    from,
    to,
    revision,
    ref: { ...base, revision, unverified: `${why} Break glass: ${ask.breakGlassReason.trim()}` },
  };
}

/** The two stages: as named, else the one pair whose target is behind its verified source. */
async function choosePair(
  deps: PlanPromotionDeps,
  pipeline: Pipeline,
  ask: PromoteAsk,
): Promise<{ from: string; to: string } | { problem: string }> {
  const { stages } = pipeline;
  const indexOf = (stage: string) => stages.indexOf(stage);
  const unknown = [ask.from, ask.to].find((s) => s !== undefined && indexOf(s) < 0);
  if (unknown !== undefined) {
    return { problem: `${unknown} is not a stage of ${pipeline.name} (stages: ${stages.join(' → ')}).` };
  }
  if (ask.from !== undefined || ask.to !== undefined) {
    const from = ask.from ?? stages[indexOf(ask.to!) - 1];
    const to = ask.to ?? stages[indexOf(ask.from!) + 1];
    if (from === undefined)
      return { problem: `${ask.to} is the first stage of ${pipeline.name}: nothing comes before it.` };
    if (to === undefined)
      return { problem: `${ask.from} is the last stage of ${pipeline.name}: there is no next stage.` };
    if (indexOf(to) !== indexOf(from) + 1) {
      return {
        problem: `A revision moves one stage at a time: after ${from} comes ${stages[indexOf(from) + 1] ?? 'nothing'}, not ${to}.`,
      };
    }
    return { from, to };
  }
  if (ask.revision !== undefined) return pairOfRevision(deps, pipeline, ask.revision);
  const waiting = [];
  for (const [i, from] of stages.slice(0, -1).entries()) {
    const to = stages[i + 1]!;
    const [source, target] = await Promise.all([deps.store.stage(from), deps.store.stage(to)]);
    if (source?.status === 'verified' && source.revision !== target?.revision) waiting.push({ from, to });
  }
  if (waiting.length === 1) return waiting[0]!;
  if (waiting.length > 1) {
    const pairs = waiting.map((w) => `${w.from} → ${w.to}`).join(', ');
    return {
      problem: `More than one stage waits (${pairs}): name the target, e.g. ${commandOf(pipeline, waiting[0]!.to)}.`,
    };
  }
  return {
    problem:
      `Nothing in ${pipeline.name} waits to be promoted: no stage's last sync is verified and ahead of the next stage. ` +
      `/sync pipeline ${pipeline.name} shows each stage; --to STAGE and --revision R pick one.`,
  };
}

/**
 * The pair whose source stage verified (else last synced) `revision`, the latest such stage first; a two-stage
 * pipeline has one pair anyway (planPromotion then says why the revision cannot go).
 */
async function pairOfRevision(
  deps: PlanPromotionDeps,
  pipeline: Pipeline,
  revision: string,
): Promise<{ from: string; to: string } | { problem: string }> {
  const { stages } = pipeline;
  const sources = stages.slice(0, -1);
  const found = await Promise.all(
    sources.map(async (stage) => {
      const [current, verified] = await Promise.all([deps.store.stage(stage), deps.store.verified(stage)]);
      return {
        verified: verified.some((v) => matches(v.revision, revision)),
        synced: current !== undefined && matches(current.revision, revision),
      };
    }),
  );
  const at = [found.findLastIndex((f) => f.verified), found.findLastIndex((f) => f.synced)].find(
    (i) => i >= 0,
  );
  if (at !== undefined) return { from: stages[at]!, to: stages[at + 1]! };
  if (sources.length === 1) return { from: stages[0]!, to: stages[1]! };
  return {
    problem: `${short(revision)} was never synced in a stage of ${pipeline.name} that has a next stage (${sources.join(', ')}): nothing to promote.`,
  };
}

/** Why `wanted` is not verified in `from`, one sentence. */
function unverifiedWhy(
  deps: PlanPromotionDeps,
  pipeline: Pipeline,
  from: string,
  wanted: string,
  current: StageSync | undefined,
  verified: readonly VerifiedRevision[],
): string {
  const shown = short(wanted);
  if (current && matches(current.revision, wanted)) {
    if (current.status === 'failed') {
      return `${shown} was not verified in ${from}: ${current.problem ?? 'its sync failed'}.`;
    }
    const needMs = pipeline.verify.healthyForMinutes * 60_000;
    if (current.healthySince === undefined) {
      return `${shown} is not verified in ${from} yet: it is not Healthy (${current.problem ?? 'not looked at yet'}); it needs ${formatDuration(needMs)} Synced and Healthy.`;
    }
    const now = deps.now?.() ?? Date.now();
    const healthyMs = Math.max(0, current.checkedAt - current.healthySince);
    const left = Math.max(0, needMs - (now - current.healthySince));
    return `${shown} is not verified in ${from} yet: Healthy for ${formatDuration(healthyMs)} of ${formatDuration(needMs)} (about ${formatDuration(left)} to go).`;
  }
  const known = verified.slice(0, 5).map((v) => short(v.revision));
  return `${shown} was never verified in ${from}${known.length ? ` (verified there: ${known.join(', ')})` : ' (nothing is verified there yet)'}.`;
}

/** `wanted` names `revision`: equal, or per source a prefix of at least 7 characters of a git SHA. */
function matches(revision: string, wanted: string): boolean {
  if (revision === wanted) return true;
  const have = splitRevisions(revision);
  const want = splitRevisions(wanted);
  return (
    have.length === want.length &&
    have.every((h, i) => h === want[i] || (/^[0-9a-f]{7,39}$/.test(want[i]!) && h.startsWith(want[i]!)))
  );
}

function short(revision: string): string {
  return splitRevisions(revision)
    .map((r) => (/^[0-9a-f]{40}$/.test(r) ? r.slice(0, 7) : r))
    .join(';');
}

function commandOf(pipeline: Pipeline, to: string): string {
  return `/sync promote ${pipeline.name} --to ${to}`;
}
