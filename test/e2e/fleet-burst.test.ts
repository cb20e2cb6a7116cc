/**
 * A release script's burst: 100 `/sync <app>` commands for 100 Applications within 10 s to one channel, on 2 bots
 * and 4 workers (real processes, real Redis, the simulator), with Slack's real chat.postMessage limit in the fake
 * (1 per second per channel, a burst of 3, 429 + Retry-After). Every command must be acknowledged within Slack's
 * 3 s and run; Slack's pace may delay the headers and threads, never refuse or drop a sync; nothing a person reads
 * shows an internal address or a client's raw error. The figures of the same run are bench/sync-burst.bench.ts'.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { percentile } from '../../bench/support/percentile.js';
import { FLEET_CHANNEL, type FleetStack, startFleetStack } from './support/fleet-stack.js';

const APPS = 100;

describe('test/e2e/fleet-burst', () => {
  let stack: FleetStack | undefined;
  afterEach(async () => {
    await stack?.close();
    stack = undefined;
  });

  it('when 100 /sync commands for 100 apps arrive within 10 s in one channel, then all are acked within 3 s and all run, each under its own header', async () => {
    stack = await startFleetStack({ apps: APPS, bots: 2, workers: 4 });
    const s = stack;

    const burst = await s.burst(10_000);
    const jobs = await s.waitForJobs(600_000);
    await s.slack.waitFor(
      () => s.slack.channelMessages(FLEET_CHANNEL).filter((m) => !m.threadTs).length >= APPS || undefined,
      300_000,
    );

    expect(burst.acks.filter((text) => !text.startsWith('Got it: syncing'))).toEqual([]);
    // Slack's limit, as the issue states it: ack p99 ≤ 3 s (a later ack is retried by Slack, and deduplicated).
    expect(percentile(burst.ackMs, 99)).toBeLessThan(3000);
    expect(jobs.filter((j) => j.failedReason)).toEqual([]);
    expect(
      new Set(jobs.map((j) => (j.data as { request: { application: string } }).request.application)),
    ).toEqual(new Set(s.appNames));
    for (const app of s.appNames)
      expect(
        s.sim.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: app, name: 'settings' }),
      ).toBeDefined();
    // One header per sync, and each sync's thread under its own header.
    const roots = s.slack.channelMessages(FLEET_CHANNEL).filter((m) => !m.threadTs);
    expect(roots).toHaveLength(APPS);
    const targets = jobs.map(
      (j) => (j.data as { request: { target: { threadTs: string } } }).request.target.threadTs,
    );
    expect(new Set(targets)).toEqual(new Set(roots.map((m) => m.ts)));
    // Nobody was told "could not post", and nothing anyone reads names an internal address.
    const told = s.slack.responseUrlPosts().map((p) => JSON.stringify(p.body));
    expect(told.filter((t) => t.includes('could not'))).toEqual([]);
    const shown = [...told, ...s.slack.calls('chat.postMessage').map((c) => JSON.stringify(c.args))];
    expect(shown.filter((t) => /127\.0\.0\.1|https?:\/\/localhost/.test(t))).toEqual([]);
  }, 900_000);
});
