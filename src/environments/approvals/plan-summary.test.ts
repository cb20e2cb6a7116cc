import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { countEventLoopTurns } from '../../../test/support/event-loop-turns.js';
import { sharedFixturesDir } from '../../../test/support/shared-fixtures.js';
import { loadManifests } from '../../applications/index.js';
import type { KubeObject } from '../../domain/index.js';
import { buildSyncTasks, runAtOnce, TimeSlice } from '../../engine/index.js';
import { planLines } from '../../slack/messages/approval-request-blocks.js';
import { planSummaryWork, summarizePlan } from './plan-summary.js';

async function plan(live: KubeObject[] | undefined, prune: boolean) {
  const loaded = await loadManifests(sharedFixturesDir('argocd-example-apps', 'sync-waves'));
  const { tasks } = buildSyncTasks({
    targets: loaded.objects,
    live: live ?? [],
    namespace: 'sync-waves',
    revision: 'abc1234',
    startedAt: '2026-11-29T10:00:00.000Z',
    operation: { prune, dryRun: false, syncOptions: [] },
  });
  return summarizePlan(tasks, live !== undefined, prune);
}

const liveService = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: 'sync-waves' },
});

describe('src/environments/approvals/plan-summary', () => {
  it('without a cluster lists every resource to apply and the hooks per phase', async () => {
    expect(await plan(undefined, false)).toEqual({
      liveKnown: false,
      create: [],
      update: [],
      apply: ['Service/backend', 'ReplicaSet/backend', 'Service/frontend', 'ReplicaSet/frontend'],
      prune: [],
      pruneSkipped: [],
      pruneRequested: false,
      hooks: {
        PreSync: ['Job/upgrade-sql-schemaabc1234-presync-1795946400'],
        Sync: ['Job/maint-page-up', 'Job/maint-page-down'],
      },
    });
  });

  it('with live objects splits create from update and lists prunes only when pruning', async () => {
    const live = [liveService('backend'), liveService('legacy')];

    const withPrune = await plan(live, true);
    const withoutPrune = await plan(live, false);

    expect(withPrune).toMatchObject({
      liveKnown: true,
      update: ['Service/backend'],
      create: ['ReplicaSet/backend', 'Service/frontend', 'ReplicaSet/frontend'],
      prune: ['Service/legacy'],
      pruneSkipped: [],
    });
    expect(withoutPrune).toMatchObject({ prune: [], pruneSkipped: ['Service/legacy'] });
  });

  it('without a cluster never claims "0 to prune" for a sync that prunes', async () => {
    const lines = planLines(await plan(undefined, true)).join('\n');
    expect(lines).toContain('--prune is on: what it deletes is not known without the live state');
    expect(lines).not.toContain('to prune');
    expect(planLines(await plan(undefined, false)).join('\n')).not.toContain('prune');
  });

  it('warns the approver about a Pod that reads an object this sync creates later (examples/rails-broken-waves)', async () => {
    const folder = path.resolve(import.meta.dirname, '../../../examples/rails-broken-waves');
    const loaded = await loadManifests(folder);
    const { tasks } = buildSyncTasks({
      targets: loaded.objects,
      live: [],
      namespace: 'shop',
      revision: 'abc1234',
      startedAt: '2026-11-29T10:00:00.000Z',
      operation: { prune: false, dryRun: false, syncOptions: [] },
    });

    const summary = summarizePlan(tasks, false, false);

    const message =
      'PreSync Job/db-migrate reads ConfigMap/rails-env, which this sync creates later (Sync wave 0): make it a PreSync hook in an earlier wave';
    expect(summary.warnings).toEqual([message]);
    expect(planLines(summary).at(-1)).toBe(`⚠️ ${message}`);
    expect((await plan(undefined, false)).warnings).toBeUndefined();
  });

  it("summarises a big plan in time slices (the bot thread's /sync diff): other work runs in between, same summary", async () => {
    const targets = Array.from({ length: 5_000 }, (_, i) => ({
      object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { i: `${i}` } },
      source: { file: 'big.yaml', line: 1 + 5 * i },
    }));
    const live = targets.slice(0, 2_000).map(({ object }) => ({
      ...object,
      metadata: { ...object.metadata, namespace: 'big' },
    }));
    const { tasks } = buildSyncTasks({
      targets,
      live,
      namespace: 'big',
      revision: 'abc1234',
      startedAt: new Date().toISOString(),
      operation: { prune: false, dryRun: false, syncOptions: [] },
    });
    const turns = countEventLoopTurns();
    // A slice of 0 ms pauses at every yield point: whether it yields does not depend on the machine's speed.
    const sliced = await new TimeSlice(0).run(planSummaryWork(tasks, true, false));
    const during = turns.stop();

    expect(during).toBeGreaterThan(10);
    expect(sliced).toEqual(runAtOnce(planSummaryWork(tasks, true, false)));
    expect(sliced).toEqual(summarizePlan(tasks, true, false));
    expect(sliced.create).toHaveLength(3_000);
    expect(sliced.update).toHaveLength(2_000);
  });
});
