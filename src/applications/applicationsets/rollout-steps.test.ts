/**
 * RollingSync steps over generated Applications, from Progressive-Syncs.md's example (dev all at once, qa never by
 * the rollout with maxUpdate 0, prod 10% rounded down but at least 1) and Argo CD's selection rules.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { sharedFixturesDir } from '../../../test/support/shared-fixtures.js';
import { ApplicationSetSchema } from './applicationset-schema.js';
import { generateApplications } from './generate-applications.js';
import { describeRollout, rolloutPlan } from './rollout-steps.js';

async function docExample() {
  const doc = await readFile(
    sharedFixturesDir('argo-cd-applicationset', 'docs', 'Progressive-Syncs.md'),
    'utf8',
  );
  const block = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => m[1] ?? '')
    .find((b) => b.includes('deletionOrder: Reverse # Applications will be deleted'));
  return ApplicationSetSchema.parse(parse(block ?? ''));
}

describe('rolloutPlan', () => {
  it("Progressive-Syncs.md's example: dev at once, qa never by the rollout, prod 10% → 1 at a time", async () => {
    const g = await generateApplications(
      { manifest: await docExample(), file: 'doc', line: 1 },
      { clusters: [] },
    );
    expect(g.rollout?.steps).toEqual([
      { number: 1, applications: ['engineering-dev-guestbook'], atOnce: 1 },
      { number: 2, applications: ['engineering-qa-guestbook'], atOnce: 0, maxUpdate: 0 },
      { number: 3, applications: ['engineering-prod-guestbook'], atOnce: 1, maxUpdate: '10%' },
    ]);
    expect(describeRollout('guestbook', g.rollout as never)).toEqual([
      'rollout of ApplicationSet guestbook: step 1: engineering-dev-guestbook (all at once)',
      'rollout of ApplicationSet guestbook: step 2: engineering-qa-guestbook (maxUpdate 0: none updated by the rollout)',
      'rollout of ApplicationSet guestbook: step 3: engineering-prod-guestbook (maxUpdate 10%: 1 at a time)',
    ]);
  });

  it('NotIn holds for an absent label; first step wins; unselected apps and invalid operators are reported', async () => {
    const manifest = await docExample();
    manifest.spec.strategy = {
      type: 'RollingSync',
      rollingSync: {
        steps: [
          { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }], maxUpdate: '50%' },
          { matchExpressions: [{ key: 'env', operator: 'In', values: ['dev', 'prod'] }], maxUpdate: 5 },
          { matchExpressions: [{ key: 'env', operator: 'Exists' }] },
        ],
      },
    };
    const apps: { name: string; labels: Record<string, string> }[] = [
      { name: 'a', labels: { env: 'dev' } },
      { name: 'b', labels: {} },
      { name: 'c', labels: { env: 'prod' } },
      { name: 'd', labels: { env: 'qa' } },
      { name: 'e', labels: { env: 'prod', tier: 'x' } },
    ];
    const plan = rolloutPlan(manifest, apps);
    expect(plan?.steps.map((s) => [s.applications, s.atOnce])).toEqual([
      [['a', 'b', 'd'], 1],
      [['c', 'e'], 2],
      [[], 0],
    ]);
    expect(plan?.duplicates).toEqual([{ application: 'a', steps: [1, 2] }]);
    expect(plan?.unassigned).toEqual([]);
    expect(plan?.issues).toEqual([
      'spec.strategy.rollingSync.steps[2].matchExpressions[0].operator Exists: only In and NotIn are valid; this step selects no Application',
    ]);
    manifest.spec.strategy = { type: 'AllAtOnce' };
    expect(rolloutPlan(manifest, apps)).toBeUndefined();
  });
});
