import { describe, expect, it } from 'vitest';
import { parseSettings } from '../settings/index.js';
import { type PlanPromotionDeps, planPromotion } from './plan-promotion.js';
import type { StageSync, VerifiedRevision } from './stage-records.js';

const settings = parseSettings(
  'promotion: { pipelines: { gb: { stages: [dev, staging, prod], verify: { healthyForMinutes: 30 } } } }',
  '/etc/wavesync/wavesync.yaml',
);
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const MIN = 60_000;

function deps(
  stages: Record<string, Partial<StageSync>>,
  verified: Record<string, string[]>,
  inEnvironment = true,
): PlanPromotionDeps {
  const stage = (name: string): StageSync | undefined =>
    stages[name]
      ? { revision: A, jobId: `job-${name}`, syncedAt: 0, checkedAt: 0, status: 'verified', ...stages[name] }
      : undefined;
  const records = (name: string): VerifiedRevision[] =>
    (verified[name] ?? []).map((revision) => ({
      revision,
      stage: name,
      jobId: 'j',
      syncedAt: 0,
      verifiedAt: 40 * MIN,
      healthyForMs: 2 * 60 * MIN,
    }));
  return {
    settings,
    store: { stage: async (n) => stage(n), verified: async (n) => records(n) },
    inEnvironment: () => inEnvironment,
    now: () => 100 * MIN,
  };
}

describe('planPromotion', () => {
  it('promotes the one stage whose verified sync is ahead of the next, to exactly that revision, saying how it was verified', async () => {
    const plan = await planPromotion(deps({ dev: { revision: B }, staging: {}, prod: {} }, { dev: [B] }), {
      name: 'gb',
    });
    expect(plan).toEqual({
      ok: true,
      pipeline: expect.objectContaining({ name: 'gb' }),
      from: 'dev',
      to: 'staging',
      revision: B,
      ref: { pipeline: 'gb', from: 'dev', revision: B, verified: 'Healthy in dev for 2 h' },
    });
    // A stage's name finds its pipeline; --revision takes a 7-character prefix.
    const byStage = await planPromotion(deps({ staging: {} }, { staging: [B, A] }), {
      name: 'prod',
      revision: A.slice(0, 7),
    });
    expect(byStage).toMatchObject({ ok: true, from: 'staging', to: 'prod', revision: A });
  });

  it('refuses with the reason: unknown pipeline or stage, skipping a stage, nothing or several waiting', async () => {
    const none = deps({}, {});
    expect(await planPromotion(none, { name: 'x' })).toEqual({
      ok: false,
      problem: 'No promotion pipeline named x (wavesync.yaml promotion.pipelines: gb).',
    });
    expect(await planPromotion(none, { name: 'gb', to: 'qa' })).toMatchObject({
      problem: 'qa is not a stage of gb (stages: dev → staging → prod).',
    });
    expect(await planPromotion(none, { name: 'gb', from: 'dev', to: 'prod' })).toMatchObject({
      problem: 'A revision moves one stage at a time: after dev comes staging, not prod.',
    });
    expect(await planPromotion(none, { name: 'gb', from: 'prod' })).toMatchObject({
      problem: 'prod is the last stage of gb: there is no next stage.',
    });
    expect(await planPromotion(none, { name: 'gb' })).toMatchObject({
      problem: expect.stringContaining('Nothing in gb waits to be promoted'),
    });
    const two = deps({ dev: { revision: B }, staging: { revision: A } }, { dev: [B], staging: [A] });
    expect(await planPromotion(two, { name: 'gb' })).toMatchObject({
      problem:
        'More than one stage waits (dev → staging, staging → prod): name the target, e.g. /sync promote gb --to staging.',
    });
    expect(await planPromotion(none, { name: 'gb', to: 'prod' })).toMatchObject({
      problem: 'staging has no sync recorded since it became a stage of gb: nothing to promote.',
    });
  });

  it('refuses an unverified revision with why, and breaks glass only with a reason, in an environment, for the last sync', async () => {
    const verifying = deps(
      { staging: { revision: B, status: 'verifying', healthySince: 80 * MIN, checkedAt: 95 * MIN } },
      {
        staging: [A],
      },
    );
    const refused = await planPromotion(verifying, { name: 'gb', to: 'prod' });
    expect(refused).toMatchObject({
      ok: false,
      problem:
        'bbbbbbb is not verified in staging yet: Healthy for 15 min of 30 min (about 10 min to go). Promote a verified revision, or break glass: /sync promote gb --to prod --break-glass "reason".',
    });
    expect(
      await planPromotion(verifying, { name: 'gb', to: 'prod', revision: 'c'.repeat(40) }),
    ).toMatchObject({
      problem: expect.stringContaining('ccccccc was never verified in staging (verified there: aaaaaaa).'),
    });
    expect(await planPromotion(verifying, { name: 'gb', to: 'prod', breakGlassReason: ' ' })).toMatchObject({
      problem: 'Break glass needs a reason: /sync promote gb --to prod --break-glass "why this cannot wait".',
    });
    const glass = await planPromotion(verifying, { name: 'gb', to: 'prod', breakGlassReason: 'outage' });
    expect(glass).toMatchObject({
      ok: true,
      revision: B,
      ref: {
        unverified: expect.stringMatching(/^bbbbbbb is not verified in staging yet: .* Break glass: outage$/),
      },
    });
    expect(
      await planPromotion(verifying, {
        name: 'gb',
        to: 'prod',
        revision: 'c'.repeat(40),
        breakGlassReason: 'x',
      }),
    ).toMatchObject({
      problem: expect.stringContaining('Break glass promotes only what staging synced last.'),
    });
    const outside = deps(
      { staging: { revision: B, status: 'failed', problem: 'the sync ended Failed' } },
      {},
      false,
    );
    expect(await planPromotion(outside, { name: 'gb', to: 'prod', breakGlassReason: 'x' })).toMatchObject({
      problem:
        'bbbbbbb was not verified in staging: the sync ended Failed. Break glass is only for stages in an environment (wavesync.yaml environments:, where requests are audited); prod is in none.',
    });
  });
});
