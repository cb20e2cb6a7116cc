/**
 * App of Apps end to end in one process: `wavesync serve` (Bolt bot + BullMQ worker on the real Redis), the
 * Kubernetes API simulator over HTTP and the fake Slack API. A signed `/sync <parent>`; the children must be
 * synced as their own jobs in the parent's order, gated on health (or not), each with a line in the parent's
 * thread and a final summary there.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  childJobId,
  childRequestKey,
  createAppOfAppsDriver,
  redisAppOfAppsChainStore,
} from '../../../src/app-of-apps/index.js';
import { createApplicationResolver } from '../../../src/app-of-apps/resolve-application.js';
import { parseApplicationFile } from '../../../src/applications/index.js';
import { ALERTS_CHANNEL } from '../../../src/demo/demo-scenario.js';
import {
  type AppOfAppsEnv,
  deployment,
  preSyncJob,
  startAppOfAppsEnv,
  writeStackFixture,
} from './app-of-apps-env.js';

const silentLogger = { debug() {}, info() {}, warn() {} };
const root = path.resolve(import.meta.dirname, '../../..');
const CHANNEL = 'C0APPS';

async function exampleChildren() {
  const file = path.join(root, 'examples/app-of-apps/applications.yaml');
  return parseApplicationFile(await readFile(file, 'utf8'), file).applications;
}

describe('App of Apps: children synced after their parent', () => {
  let h: AppOfAppsEnv | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await h?.close();
    h = undefined;
    for (const c of cleanups.splice(0)) await c();
  });

  it('when /sync app-of-apps succeeds, then the 5 example children are synced one by one in order, each Healthy, with a line each and a summary in the parent thread', async () => {
    h = await startAppOfAppsEnv();
    const children = await exampleChildren();
    const names = children.map((c) => c.name);

    await h.sync('app-of-apps', CHANNEL);
    const entries = [];
    for (const name of names) entries.push(await h.finished(name, 90_000));
    const env = h;
    await env.env.slack.waitFor(
      () => env.replies(CHANNEL).some((r) => r.includes('App of Apps: 5/5')),
      60_000,
    );

    expect(entries.map((e) => [e.application, e.phase, e.health?.status])).toEqual(
      names.map((n) => [n, 'Succeeded', 'Healthy']),
    );
    for (let i = 1; i < entries.length; i++) {
      expect(Date.parse(entries[i]!.startedAt)).toBeGreaterThanOrEqual(
        Date.parse(entries[i - 1]!.finishedAt),
      );
    }
    const [parent] = await h.queue.history('app-of-apps', 1);
    expect(parent?.phase).toBe('Succeeded');
    expect(entries[0]!.initiator).toEqual(parent?.initiator);
    for (const child of children) expect(await h.resourceProblems(child)).toEqual([]);
    const replies = h.replies(CHANNEL);
    const at = (needle: string) => replies.findIndex((r) => r.includes(needle));
    expect(at('🎉 Succeeded')).toBeGreaterThanOrEqual(0);
    expect(
      at('App of Apps: syncing 5 children of app-of-apps in order, each after the previous is Healthy'),
    ).toBeGreaterThan(at('🎉 Succeeded'));
    const lines = names.map((n) => at(`↳ ✅ ${n} Succeeded · Healthy`));
    expect(lines.every((i) => i > 0)).toBe(true);
    expect([...lines].sort((a, b) => a - b)).toEqual(lines);
    expect(replies.filter((r) => r.startsWith('↳'))).toHaveLength(5);
    expect(replies.at(-1)).toBe('✅ App of Apps: 5/5 children synced and Healthy');
    // Children are normal jobs of their app: status and history know them, nothing is left in a line.
    expect(await h.queue.allStatus()).toEqual([]);
  }, 180_000);

  it('when a gated child ends Degraded, then the next child is not synced and the parent thread says so', async () => {
    const fixture = await writeStackFixture({
      children: [
        { name: 'first', manifest: deployment('nginx:1.25') },
        { name: 'broken', manifest: deployment('nginx:does-not-exist', 20) },
        { name: 'third', manifest: deployment('nginx:1.25') },
      ],
    });
    cleanups.push(fixture.remove);
    h = await startAppOfAppsEnv({ configFile: fixture.configFile });

    await h.sync('stack', CHANNEL);
    const first = await h.finished('first', 60_000);
    const broken = await h.finished('broken', 60_000);
    const env = h;
    const summary = await env.env.slack.waitFor(
      () => env.replies(CHANNEL).find((r) => r.includes('App of Apps: 1/3')),
      60_000,
    );

    expect([first.phase, first.health?.status]).toEqual(['Succeeded', 'Healthy']);
    expect(broken.phase === 'Failed' || broken.health?.status === 'Degraded').toBe(true);
    expect(summary).toMatch(
      /^❌ App of Apps: 1\/3 children synced and Healthy · broken .* · not synced: third$/,
    );
    expect(await h.queue.history('third')).toEqual([]);
    // The parent's header says Succeeded: the failed chain is shown in the channel too.
    expect(
      env.env.slack.channelMessages(CHANNEL).some((m) => m.broadcast && m.text.includes('App of Apps: 1/3')),
    ).toBe(true);
    expect(await h.queue.applicationStatus('third')).toEqual([]);
    expect(h.replies(CHANNEL).filter((r) => r.startsWith('↳'))).toEqual([
      expect.stringMatching(/^↳ ✅ first Succeeded · Healthy · /),
      expect.stringMatching(/^↳ (❌ broken Failed|⚠️ broken Succeeded · Degraded)/),
    ]);
    // The failed child is announced like any failed sync, in its parent's environment's alerts channel.
    await env.env.slack.waitFor(
      () => env.env.slack.channelMessages(ALERTS_CHANNEL).find((m) => m.text.includes('broken')),
      60_000,
    );
  }, 120_000);

  it('when a child has the name of a registered Application or another environment, then no child is synced and the parent thread says why', async () => {
    const fixture = await writeStackFixture({
      children: [
        { name: 'payments', manifest: deployment('nginx:1.25') },
        { name: 'sneaky', manifest: deployment('nginx:1.25'), environment: 'production' },
      ],
      registered: ['payments'],
    });
    cleanups.push(fixture.remove);
    h = await startAppOfAppsEnv({ configFile: fixture.configFile });

    await h.sync('stack', CHANNEL);
    const parent = await h.finished('stack', 60_000);
    const env = h;
    const refusal = await env.env.slack.waitFor(
      () => env.replies(CHANNEL).find((r) => r.includes('refused:')),
      60_000,
    );

    expect(parent.phase).toBe('Succeeded');
    expect(refusal).toContain('child payments has the name of the Application registered at');
    expect(refusal).toContain(
      "child sneaky belongs to environment production and stack to staging: children inherit the parent's approval only within its environment",
    );
    expect(await h.queue.history('payments')).toEqual([]);
    expect(await h.queue.history('sneaky')).toEqual([]);
    expect(
      h.env.sim.get({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'aoa-payments', name: 'web' }),
    ).toBeUndefined();
  }, 120_000);

  it('when gating is off for the parent (annotation), then each child starts without waiting for the previous one', async () => {
    const fixture = await writeStackFixture({
      parentAnnotations: { 'wavesync.io/gate-on-child-health': 'false' },
      children: [
        // broken's operation lasts 2 s (its PreSync hook): without it, it completes about 100 ms after it starts,
        // and on a busy machine second's operation could start only after that, failing the first check below.
        { name: 'broken', manifest: `${preSyncJob(40)}---\n${deployment('nginx:does-not-exist', 40)}` },
        { name: 'second', manifest: deployment('nginx:1.25') },
        { name: 'third', manifest: deployment('nginx:1.25') },
      ],
    });
    cleanups.push(fixture.remove);
    h = await startAppOfAppsEnv({ configFile: fixture.configFile });

    await h.sync('stack', CHANNEL);
    const [broken, second, third] = [
      await h.finished('broken', 60_000),
      await h.finished('second', 60_000),
      await h.finished('third', 60_000),
    ];
    const env = h;
    const summary = await env.env.slack.waitFor(
      () => env.replies(CHANNEL).find((r) => r.includes('App of Apps: 2/3')),
      60_000,
    );

    expect(Date.parse(second.startedAt)).toBeLessThan(Date.parse(broken.finishedAt));
    // Not gated, child N+1 is queued when N's job starts (the driver's `started` hook), before N's operation has
    // rendered anything: the two operations' startedAt may come in either order (they run side by side), so the
    // order is checked where the driver makes it, on the queue. Queued after second, and before second finished.
    const enqueuedAt = async (entry: { jobId: string }) =>
      Date.parse((await env.queue.jobStatus(entry.jobId))?.enqueuedAt ?? 'missing');
    expect(await enqueuedAt(third)).toBeGreaterThanOrEqual(await enqueuedAt(second));
    expect(await enqueuedAt(third)).toBeLessThan(Date.parse(second.finishedAt));
    expect([second.health?.status, third.health?.status]).toEqual(['Healthy', 'Healthy']);
    expect(summary).toMatch(/^❌ App of Apps: 2\/3 children synced and Healthy · broken /);
    expect(summary).not.toContain('not synced');
    expect(h.replies(CHANNEL).some((r) => r.includes('each after the previous started'))).toBe(true);
  }, 120_000);

  it('when the worker stops between children and a new one starts, and the parent hook runs again, then no child is lost or synced twice', async () => {
    h = await startAppOfAppsEnv();
    const names = (await exampleChildren()).map((c) => c.name);

    await h.sync('app-of-apps', CHANNEL);
    await h.finished(names[1]!, 60_000);
    await h.restartServe();
    const entries = [];
    for (const name of names) entries.push(await h.finished(name, 90_000));
    const env = h;
    await env.env.slack.waitFor(
      () => env.replies(CHANNEL).some((r) => r.includes('App of Apps: 5/5')),
      60_000,
    );
    // A redelivered parent (its hook runs again) and a replayed enqueue of the first child are refused.
    const [parent] = await h.queue.history('app-of-apps', 1);
    const job = await h.queue.jobStatus(parent!.jobId);
    const driver = createAppOfAppsDriver({
      queue: h.queue,
      store: redisAppOfAppsChainStore(h.redis, h.env.config.queue.prefix),
      settings: h.settings,
      applicationOf: createApplicationResolver({ registry: h.apps.registry, settings: h.settings }),
      render: (app, { revision }) => h!.apps.renderer.renderApplication(app, revision ? { revision } : {}),
      registered: (name) => h!.apps.registry.find(name),
      logger: silentLogger,
    });
    const request = {
      application: 'app-of-apps',
      operation: job!.operation,
      initiator: job!.initiator,
      target: job!.target,
      requestKey: 'replayed',
    };
    await driver.ended!({ jobId: parent!.jobId, request, state: job!.operationState!, cancelled: false });
    const again = await h.queue.enqueueSync(
      { ...request, application: names[0]!, requestKey: childRequestKey(parent!.jobId, names[0]!) },
      { jobId: childJobId(parent!.jobId, names[0]!) },
    );
    await new Promise((r) => setTimeout(r, 2000));

    expect(again).toMatchObject({ duplicate: true, jobId: childJobId(parent!.jobId, names[0]!) });
    expect(entries.map((e) => [e.application, e.phase])).toEqual(names.map((n) => [n, 'Succeeded']));
    for (const name of names) expect(await h.queue.history(name)).toHaveLength(1);
    expect(await h.queue.allStatus()).toEqual([]);
    const replies = h.replies(CHANNEL);
    expect(replies.filter((r) => r.startsWith('↳'))).toHaveLength(5);
    expect(replies.filter((r) => r.includes('App of Apps: syncing'))).toHaveLength(1);
    expect(replies.filter((r) => r.includes('App of Apps: 5/5'))).toHaveLength(1);
  }, 180_000);
});
