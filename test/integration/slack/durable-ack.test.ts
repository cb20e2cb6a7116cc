/**
 * "Got it" only for what is durable: bot processes SIGKILLed at random moments around the ack of `/sync`; a bot
 * started afterwards finishes what the dead ones acknowledged. Every acknowledged command is queued exactly once
 * under exactly one header; a command not acknowledged is queued at most once. With Redis unreachable the ack says
 * "not queued" and nothing is posted.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.js';
import { syncKeys } from '../../../src/queue/store/redis-keys.js';
import { createSyncQueue, type SyncQueue } from '../../../src/queue/sync-queue.js';
import type { Block } from '../../../src/slack/messages/block.js';
import { renderBlocksAsText } from '../../../src/slack/messages/render-blocks-as-text.js';
import { createSlackApp } from '../../../src/slack/slack-app.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { SignedSlackClient } from '../../fakes/slack-client.js';
import { spawnBotProcess } from '../support/bot-processes.js';
import { deleteKeys, REDIS_URL, testRedis, uniquePrefix, waitFor } from '../support/queue-test-env.js';

const SECRET = 'test-signing-secret-0123456789abcdef';
const CHANNEL = 'C0DEPLOYS';
// 10 by default (each trial starts a bot process: ~2.5 s CPU); DURABLE_ACK_TRIALS=20 for the figures in docs/queue.md.
const TRIALS = Number(process.env.DURABLE_ACK_TRIALS ?? 10);
const APPS = Array.from({ length: TRIALS }, (_, i) => `app${String(i + 1).padStart(2, '0')}`);

describe('/sync is acknowledged only once it is durable', { timeout: 300_000 }, () => {
  let fake: FakeSlackApi;
  let redis: Redis;
  let queue: SyncQueue;
  let prefix: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    fake = await FakeSlackApi.start({ postIntervalMs: 10, burst: 50 });
    redis = testRedis();
    prefix = uniquePrefix();
    queue = createSyncQueue({ connection: { url: REDIS_URL }, prefix });
  });
  afterAll(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await queue.close();
    await deleteKeys(redis, prefix);
    redis.disconnect();
    await fake.close();
  });

  const spawnBot = async () => {
    const bot = await spawnBotProcess({
      REDIS_URL,
      PREFIX: prefix,
      SLACK_API_URL: fake.apiUrl,
      SIGNING_SECRET: SECRET,
      // Long enough that a live but CPU-starved bot renews its lease before another live bot recovers it.
      LEASE_MS: '3000',
      APPS: [...APPS, ...APPS.map((a) => `warm-${a}`)].join(','),
    });
    children.push(bot.child);
    return bot;
  };
  const headersOf = (app: string) =>
    fake
      .channelMessages(CHANNEL)
      .filter(
        (m) =>
          m.threadTs === undefined &&
          new RegExp(`(^|[^-])${app}\\b`).test(renderBlocksAsText(m.blocks as Block[])),
      );

  it(`${TRIALS} bots killed -9 at random moments around the ack: every acked command queued once, none twice`, async () => {
    type Trial = { app: string; acked: boolean; killAfterMs: number; pathMs: number; ackMs?: number };
    const trial = async (app: string): Promise<Trial> => {
      const { child, port } = await spawnBot();
      const client = new SignedSlackClient(`http://127.0.0.1:${port}`, SECRET);
      // Warm the process up (JIT, Redis connection, Slack client) with a full command, and time its whole path
      // (request → queued), so the kill lands anywhere from before the journal write to after the enqueue.
      const warmStarted = performance.now();
      await client.sendCommand({ text: `warm-${app}`, userId: 'U0PAT' });
      await waitFor(
        async () => (await queue.applicationStatus(`warm-${app}`)).length === 1,
        60_000, // bot start-up and first command on a loaded 2-core machine, not a race
        'warm-up',
      );
      const pathMs = performance.now() - warmStarted;
      // Skewed early: most kills land around the journal write and the ack, the rest during header post and enqueue.
      const killAfterMs = Math.floor(Math.random() ** 2 * pathMs);
      const sent = client.sendCommand({ text: app, userId: 'U0PAT' }).then(
        (d) => d,
        () => undefined,
      );
      await new Promise((r) => setTimeout(r, killAfterMs));
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
      const delivery = await sent;
      const acked = JSON.stringify(delivery?.json ?? {}).includes('Got it');
      if (process.env.DURABLE_ACK_DEBUG) console.info(app, { killAfterMs, pathMs, acked });
      return {
        app,
        acked,
        killAfterMs,
        pathMs: Math.round(pathMs),
        ...(delivery ? { ackMs: Math.round(delivery.ackMs) } : {}),
      };
    };
    // Two bots at a time (each trial needs its own process to kill; start-up is the cost).
    const trials: Trial[] = [];
    for (let i = 0; i < APPS.length; i += 2) {
      trials.push(...(await Promise.all(APPS.slice(i, i + 2).map(trial))));
    }

    // A bot started later finishes what the dead ones acknowledged (their journal leases lapse after 3 s).
    await new Promise((r) => setTimeout(r, 3100));
    await spawnBot();
    const keys = syncKeys(prefix, 'sync-operations');
    await waitFor(async () => (await redis.zcard(keys.commands)) === 0, 30_000, 'journal drained');

    const outcome = await Promise.all(
      trials.map(async (t) => {
        const jobs = await queue.applicationStatus(t.app);
        const headers = headersOf(t.app);
        return {
          ...t,
          jobs: jobs.length,
          headers: headers.length,
          target: jobs[0]?.target?.threadTs,
          header: headers[0]?.ts,
        };
      }),
    );
    console.info(
      `durable ack: ${outcome.length} trials, ${outcome.filter((o) => o.acked).length} acked, ` +
        `${outcome.filter((o) => o.acked && o.jobs === 0).length} acked but lost, ` +
        `${outcome.filter((o) => o.jobs > 1).length} queued twice, ${outcome.filter((o) => o.headers > 1).length} with two headers`,
    );
    for (const o of outcome) {
      expect(o.jobs, JSON.stringify(o)).toBeLessThanOrEqual(1);
      expect(o.headers, JSON.stringify(o)).toBeLessThanOrEqual(1);
      if (o.acked) {
        expect(o.jobs, JSON.stringify(o)).toBe(1);
        expect(o.target, JSON.stringify(o)).toBe(o.header);
      }
      // Whatever was queued is under its one header.
      if (o.jobs === 1) expect(o.target).toBe(o.header);
    }
    // The kill points covered both sides of the ack.
    expect(outcome.some((o) => o.acked)).toBe(true);
  });

  it('with Redis unreachable the ack says not queued (within 3 s) and nothing is posted', async () => {
    const down = createSyncQueue({ connection: { url: 'redis://127.0.0.1:1' }, prefix, timeoutMs: 1000 });
    const app = createSlackApp({
      botToken: fake.botToken,
      signingSecret: SECRET,
      apiUrl: fake.apiUrl,
      port: 0,
      host: '127.0.0.1',
      clientRetries: 0,
      deps: {
        queue: down,
        journal: down.commands,
        catalog: { names: () => ['down'], describe: (name) => ({ name, destination: 'x', source: 'y' }) },
        logger: createLogger({ level: 'silent' }),
      },
    });
    const { port } = await app.start();
    try {
      const before = fake.calls('chat.postMessage').length;
      const delivery = await new SignedSlackClient(`http://127.0.0.1:${port}`, SECRET).sendCommand({
        text: 'down',
      });
      expect(delivery.ackMs).toBeLessThan(3000);
      expect(delivery.json).toMatchObject({ response_type: 'ephemeral' });
      expect(JSON.stringify(delivery.json)).toContain('was not queued: Redis unavailable, try again');
      expect(JSON.stringify(delivery.json)).not.toContain('Got it');
      await new Promise((r) => setTimeout(r, 300));
      expect(fake.calls('chat.postMessage').length).toBe(before);
    } finally {
      await app.stop();
      await down.close();
    }
  });

  it('a rollout (/sync <appset>) with Redis unreachable is not started: the ack says so and nothing is posted', async () => {
    const down = createSyncQueue({ connection: { url: 'redis://127.0.0.1:1' }, prefix, timeoutMs: 1000 });
    const started: string[] = [];
    const app = createSlackApp({
      botToken: fake.botToken,
      signingSecret: SECRET,
      apiUrl: fake.apiUrl,
      port: 0,
      host: '127.0.0.1',
      clientRetries: 0,
      deps: {
        queue: down,
        journal: down.commands,
        catalog: {
          names: () => ['shop-dev'],
          describe: (name) =>
            name === 'shop-dev' ? { name, destination: 'x', source: 'y', environment: 'staging' } : undefined,
        },
        rollouts: {
          plan: (name) =>
            name === 'shop'
              ? { steps: [{ applications: ['shop-dev'], atOnce: 1 }], unassigned: [] }
              : undefined,
          start: async (chain) => {
            started.push(chain.rolloutId);
          },
        },
        logger: createLogger({ level: 'silent' }),
      },
    });
    const { port } = await app.start();
    try {
      const before = fake.calls('chat.postMessage').length;
      const delivery = await new SignedSlackClient(`http://127.0.0.1:${port}`, SECRET).sendCommand({
        text: 'shop',
      });
      expect(delivery.ackMs).toBeLessThan(3000);
      expect(JSON.stringify(delivery.json)).toContain(
        'Rollout of shop not started: Redis unavailable, try again.',
      );
      expect(JSON.stringify(delivery.json)).not.toContain('Got it');
      await new Promise((r) => setTimeout(r, 300));
      expect(fake.calls('chat.postMessage').length).toBe(before);
      expect(started).toEqual([]);
    } finally {
      await app.stop();
      await down.close();
    }
  });
});
