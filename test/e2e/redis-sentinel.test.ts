/**
 * Redis Sentinel failover end to end: a real master, two replicas (`--replicaof`) and three sentinels
 * (`redis-server <conf> --sentinel`, quorum 2, down-after 1 s) on loopback ports; `wavesync bot` and `wavesync
 * worker` as child processes configured by REDIS_SENTINELS + REDIS_SENTINEL_MASTER only. The master is SIGKILLed
 * while a sync's migration hook runs: Sentinel promotes a replica, ioredis follows it, and the sync must complete in
 * its one thread with no hook created twice; a /sync sent while the master is gone is either run or its requester
 * is told it was not queued; a /sync after the promotion runs. Set WAVESYNC_MEASURE=1 to print the timings.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkOutcomes, threadText } from '../../src/demo/check-outcomes.js';
import { DEMO_APPS, type DemoApp } from '../../src/demo/demo-scenario.js';
import { createSyncQueue } from '../../src/queue/index.js';
import { redisServerMissing, type SentinelSet, startSentinelSet } from '../support/redis-topologies.js';
import { type E2eStack, startE2eStack } from './support/e2e-stack.js';
import {
  RAILS_HOOK_DELETES_ONCE,
  railsHookDeletes,
  railsHookDeleteTrace,
  threadRoots,
} from './support/thread-checks.js';

const app = (name: string): DemoApp => DEMO_APPS.find((a) => a.application === name)!;

describe.skipIf(redisServerMissing())('test/e2e/redis-sentinel', () => {
  let stack: E2eStack | undefined;
  let sentinels: SentinelSet | undefined;
  afterEach(async () => {
    try {
      await stack?.close();
    } finally {
      await sentinels?.stop();
      stack = undefined;
      sentinels = undefined;
    }
  });

  it('when the master is SIGKILLed mid-sync, then Sentinel promotes a replica, the sync completes in its thread with each hook created once, and every acknowledged /sync runs or its requester is told', async () => {
    sentinels = await startSentinelSet({ replicas: 2, downAfterMs: 1000 });
    stack = await startE2eStack({ speed: 1, redisEnv: sentinels.env });
    const s = stack;
    const rails = app('rails');
    const guestbook = app('guestbook');
    const sync = (text: string, channel: string) =>
      s.client.sendCommand({
        text,
        channelId: channel,
        userId: 'U0PAT',
        userName: 'pat',
        responseUrl: s.slack.responseUrl(channel),
      });

    await s.sync(rails);
    const root = await s.slack.waitFor(
      () => s.slack.channelMessages(rails.channel).find((m) => !m.threadTs),
      20_000,
    );
    const replies = () => threadText(s.slack, rails.channel, root.ts);
    await s.slack.waitFor(() => replies().includes('PreSync · wave 2'), 60_000);
    const finishedBeforeKill = replies().includes('Succeeded');
    const killedAt = performance.now();
    const [promotionMs, during] = await Promise.all([
      sentinels.killMaster(),
      // While no master answers: acknowledged only once durable, else the requester hears "not queued".
      new Promise((r) => setTimeout(r, 300)).then(() => sync('guestbook', guestbook.channel)),
    ]);
    const [railsOutcome] = await checkOutcomes({
      apps: [rails],
      env: s,
      acks: new Map(),
      timeoutMs: 120_000,
    });
    const syncDoneMs = performance.now() - killedAt;
    const after = await sync('sync-waves', app('sync-waves').channel);
    const [afterOutcome] = await checkOutcomes({
      apps: [app('sync-waves')],
      env: s,
      acks: new Map(),
      timeoutMs: 120_000,
    });

    if (process.env.WAVESYNC_MEASURE)
      console.info(
        `sentinel failover: promotion ${promotionMs.toFixed(0)} ms, rails done ${syncDoneMs.toFixed(0)} ms after the kill`,
      );
    expect(finishedBeforeKill).toBe(false);
    expect(await sentinels.currentMaster()).not.toBe(sentinels.masterPort);
    expect(railsOutcome?.problems).toEqual([]);
    expect(railsOutcome?.phase).toBe('Succeeded');
    expect(threadRoots(s, rails.channel)).toEqual([root.ts]);
    expect(railsHookDeletes(s), railsHookDeleteTrace(s)).toEqual(RAILS_HOOK_DELETES_ONCE);
    // The /sync sent during the failover: told "not queued" in its ack, or it ran (one history entry).
    expect(during.status).toBe(200);
    const queue = createSyncQueue({ connection: s.config.redis, prefix: s.config.queue.prefix });
    try {
      // Refused in the ack ("was not run: Redis is unavailable") or, once accepted, "was not queued" later.
      const told =
        /was not (run|queued)/.test(during.body) ||
        s.slack
          .responseUrlPosts(guestbook.channel)
          .some((p) => JSON.stringify(p.body).includes('was not queued'));
      let ran = false;
      for (const deadline = Date.now() + (told ? 5000 : 60_000); !ran && Date.now() < deadline; ) {
        ran = (await queue.history('guestbook', 5)).length === 1;
        if (!ran) await new Promise((r) => setTimeout(r, 200));
      }
      expect(told || ran).toBe(true);
      expect(told && ran).toBe(false);
    } finally {
      await queue.close();
    }
    expect(after.status).toBe(200);
    expect(after.body).not.toMatch(/was not (run|queued)/);
    expect(afterOutcome?.phase).toBe('Succeeded');
  }, 300_000);
});
