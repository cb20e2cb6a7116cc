import type { AddressInfo, Socket } from 'node:net';
import { createServer } from 'node:net';
import type { WebClient } from '@slack/web-api';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncEvent } from '../../../src/domain/index.js';
import { type Block, textMessage } from '../../../src/slack/messages/block.js';
import { renderBlocksAsText } from '../../../src/slack/messages/render-blocks-as-text.js';
import {
  createSlackReporter,
  type SlackReporterOptions,
} from '../../../src/slack/reporters/slack-reporter.js';
import { slackChat } from '../../../src/slack/slack-chat.js';
import { createSlackWebClient } from '../../../src/slack/slack-web-client.js';
import { CallBudget } from '../../../src/thread/call-budget.js';
import { ChannelPacer } from '../../../src/thread/channel-pacer.js';
import { sweepOutboxes } from '../../../src/thread/outbox-sweeper.js';
import type { PostedLines } from '../../../src/thread/posted-lines.js';
import { redisPostedLines } from '../../../src/thread/redis-posted-lines.js';
import {
  outboxesKey,
  redisThreadOutbox,
  redisThreadOutboxes,
} from '../../../src/thread/redis-thread-outbox.js';
import type { ThreadOutbox } from '../../../src/thread/thread-outbox.js';
import { ThreadPoster } from '../../../src/thread/thread-poster.js';
import { type FakeMessage, FakeSlackApi } from '../../fakes/fake-slack-api.js';
import {
  feed,
  manyWavesEvents,
  PRE_POST_SYNC_THREAD,
  prePostSyncEvents,
} from '../../fakes/sync-event-streams.js';

const CHANNEL = 'C0DEPLOYS';
const header = {
  application: 'guestbook',
  destination: 'staging',
  initiator: { userId: 'U0PAT', userName: 'pat' },
  commandText: '/sync guestbook',
  jobId: 'job-1',
};
const text = (m: FakeMessage) => renderBlocksAsText(m.blocks as Block[]);

describe('the sync thread reporter (src/thread) in Slack (src/slack/reporters/slack-reporter) against the fake Slack API', () => {
  let fake: FakeSlackApi;
  afterEach(async () => fake?.close());

  async function setup(
    fakeOptions: { postIntervalMs?: number; burst?: number } = {},
    reporter: Partial<SlackReporterOptions> = {},
    clientOptions: { timeoutMs?: number } = {},
  ) {
    fake = await FakeSlackApi.start({ postIntervalMs: 20, burst: 3, ...fakeOptions });
    const client: WebClient = createSlackWebClient({
      botToken: fake.botToken,
      apiUrl: fake.apiUrl,
      retries: 0,
      ...clientOptions,
    });
    const root = await client.chat.postMessage({ channel: CHANNEL, text: 'header' });
    const target = { channel: CHANNEL, threadTs: root.ts! };
    const make = (more: Partial<SlackReporterOptions> = {}) =>
      createSlackReporter({
        client,
        target,
        header,
        pacer: new ChannelPacer(20),
        headerIntervalMs: 20,
        coalesceMs: 5,
        ...reporter,
        ...more,
      });
    return { client, target, make, callsBefore: fake.calls().length };
  }

  it('when a sync succeeds, then the thread tells it in order, ends with the summary, and the header says Succeeded', async () => {
    const { target, make, callsBefore } = await setup();
    const reporter = make();

    await feed(reporter, prePostSyncEvents(), 25);

    const thread = fake.thread(CHANNEL, target.threadTs).map(text).join('\n');
    expect(thread.split('\n')).toEqual(PRE_POST_SYNC_THREAD);
    expect(fake.thread(CHANNEL, target.threadTs).some((m) => m.broadcast)).toBe(false);
    expect(text(fake.message(CHANNEL, target.threadTs)!)).toBe(
      '✅ guestbook → staging  ·  Succeeded  ·  Healthy  ·  0:32\nrevision 3f9c2e1 · requested by @U0PAT · /sync guestbook',
    );
    expect(fake.calls().length - callsBefore).toBe(reporter.calls);
    expect(reporter.calls).toBeLessThanOrEqual(3 + 2 + 3);
    expect(fake.calls().every((c) => c.status === 200 && c.response.ok === true)).toBe(true);
  });

  it('when Slack answers HTTP 500 during the sync and until after it ended, then the thread is complete once Slack recovers', async () => {
    const { target, make } = await setup();
    const reporter = make();
    fake.outage(6000);

    await feed(reporter, prePostSyncEvents(), 25); // ends (close() drains) only once Slack is back

    expect(fake.calls().some((c) => c.status === 500)).toBe(true);
    const thread = fake.thread(CHANNEL, target.threadTs).map(text).join('\n');
    expect(thread.split('\n')).toEqual(PRE_POST_SYNC_THREAD);
    expect(text(fake.message(CHANNEL, target.threadTs)!)).toContain('Succeeded');
  });

  it('when a PreSync hook fails, then its log tail is replied, the summary is broadcast and the header says Failed', async () => {
    const { target, make } = await setup();

    await feed(make(), prePostSyncEvents({ failPreSync: true }), 25);

    const replies = fake.thread(CHANNEL, target.threadTs);
    const all = replies.map(text).join('\n');
    expect(all).toContain(
      '✗ PreSync hook Job/pre-post-sync-before failed after 12 s: Job has reached the specified backoff limit\n' +
        '│ == 20261129 AddIndexToOrders: migrating ====\n│ rake aborted!\n│ PG::UndefinedTable: ERROR:  relation "orders" does not exist',
    );
    const summary = replies[replies.length - 1]!;
    expect(summary.broadcast).toBe(true);
    expect(text(summary)).toBe(
      '❌ Failed in 12 s · one or more synchronization tasks completed unsuccessfully, reason: Job has reached the specified backoff limit · 1 hook run',
    );
    expect(replies.slice(0, -1).every((m) => !m.broadcast)).toBe(true);
    expect(fake.channelMessages(CHANNEL).map((m) => m.ts)).toEqual([target.threadTs, summary.ts]);
    expect(text(fake.message(CHANNEL, target.threadTs)!).split('\n')[0]).toBe(
      '❌ guestbook → staging  ·  Failed  ·  one or more synchronization tasks completed unsuccessfully, reason: Job has reached the specified backoff limit  ·  0:12',
    );
  });

  it.each([
    ['all at once', 0],
    ['spaced slower than the pacing', 12],
  ])(
    'when 40 waves with 8 hooks are reported %s, then calls stay within waves + hooks + 3 and nothing is lost',
    async (_name, gapMs) => {
      const { target, make, callsBefore } = await setup(
        { postIntervalMs: 10, burst: 3 },
        { pacer: new ChannelPacer(10), headerIntervalMs: 10, coalesceMs: 2 },
      );
      const reporter = make();
      const events = manyWavesEvents(40, 5);

      await feed(reporter, events, gapMs);

      const calls = fake.calls().length - callsBefore;
      expect(reporter.budget).toBe(40 + 8 + 3);
      expect(calls).toBeLessThanOrEqual(40 + 8 + 3);
      expect(calls).toBe(reporter.calls);
      expect(fake.calls().filter((c) => c.status === 429)).toEqual([]);
      const lines = fake.thread(CHANNEL, target.threadTs).map(text).join('\n').split('\n');
      const expected = events.flatMap((e: SyncEvent) => {
        if (e.type === 'WaveCompleted')
          return [`✓ Sync · wave ${e.wave.wave} — ConfigMap/config-${e.wave.wave} Healthy after 0.9 s`];
        if (e.type === 'HookFinished') return [`✓ Sync hook Job/${e.task.name} succeeded in 0.5 s`];
        return [];
      });
      expect(lines.filter((l) => l.startsWith('✓'))).toEqual(expected);
      expect(lines[lines.length - 1]).toBe('🎉 Succeeded in 40 s · Healthy after 1 s');
      expect(text(fake.message(CHANNEL, target.threadTs)!)).toMatch(
        /^✅ guestbook → staging {2}· {2}Succeeded/,
      );
    },
  );

  it('when the plan has warnings and a wave waits, then the warnings are one reply and the header says what it waits for', async () => {
    const { target, make } = await setup();
    const reporter = make();
    const events = prePostSyncEvents();
    const started = events[0]! as Extract<SyncEvent, { type: 'OperationStarted' }>;
    const warning =
      'PreSync Job/pre-post-sync-before reads ConfigMap/db-env, which this sync creates later (Sync wave 0): make it a PreSync hook in an earlier wave';
    const waveStarted = events.find((e) => e.type === 'WaveStarted')!;
    const wave = waveStarted.type === 'WaveStarted' ? waveStarted.wave : undefined;
    const reason =
      'Job/pre-post-sync-before: Pod pre-post-sync-before-x (container main) waits for Secret/db (not in this sync; fails after 60s)';
    const waiting: SyncEvent = {
      type: 'WaveWaiting',
      at: started.at,
      wave: wave!,
      waiting: [{ task: started.waves[0]!.tasks[0]!, reason }],
    };

    for (const e of [{ ...started, warnings: [warning] }, waveStarted, waiting]) await reporter.report(e);
    await expect
      .poll(() => text(fake.message(CHANNEL, target.threadTs)!), { timeout: 5_000 })
      .toContain(`waiting for ${reason}`);
    await feed(reporter, events.slice(events.indexOf(waveStarted) + 1), 5);

    const thread = fake.thread(CHANNEL, target.threadTs).map(text).join('\n');
    expect(thread.split('\n').filter((l) => l.includes('creates later'))).toEqual([`⚠️ ${warning}`]);
    expect(text(fake.message(CHANNEL, target.threadTs)!)).not.toContain('waiting for');
  });

  describe('when a wave of resources waits', () => {
    const reason = 'Database/orders-db: Provisioning postgres 16 with 10Gi of storage';
    /** pre-post-sync's events with a WaveWaiting on its Deployment just before the Sync wave completes. */
    const withWaiting = () => {
      const events = prePostSyncEvents();
      const completed = events.findIndex((e) => e.type === 'WaveCompleted' && e.wave.phase === 'Sync');
      const done = events[completed] as Extract<SyncEvent, { type: 'WaveCompleted' }>;
      const waiting: SyncEvent = {
        type: 'WaveWaiting',
        at: done.at,
        wave: done.wave,
        waiting: [{ task: done.health[1]!.task, reason }],
      };
      return { events, completed, waiting };
    };
    const syncLine = (lines: string) => lines.split('\n').find((l) => l.startsWith('✓ Sync · wave 0'));

    it('and the header could not show why (updates throttled), then the wave completed line says what it waited for', async () => {
      const { target, make } = await setup({}, { headerIntervalMs: 1000 });
      const { events, completed, waiting } = withWaiting();

      await feed(make(), [...events.slice(0, completed), waiting, ...events.slice(completed)], 5);

      const thread = fake.thread(CHANNEL, target.threadTs).map(text).join('\n');
      expect(syncLine(thread)).toBe(
        `✓ Sync · wave 0 — 2 resources Healthy after 18 s · waited for ${reason}`,
      );
    });

    it('and the header showed why, then the wave completed line does not say it again', async () => {
      const { target, make } = await setup();
      const reporter = make();
      const { events, completed, waiting } = withWaiting();

      for (const e of [...events.slice(0, completed), waiting]) await reporter.report(e);
      await expect
        .poll(() => text(fake.message(CHANNEL, target.threadTs)!), { timeout: 5_000 })
        .toContain(`waiting for ${reason}`);
      await feed(reporter, events.slice(completed), 5);

      const thread = fake.thread(CHANNEL, target.threadTs).map(text).join('\n');
      expect(syncLine(thread)).toBe('✓ Sync · wave 0 — 2 resources Healthy after 18 s');
    });
  });

  it("when the manifests hit Argo CD's silent fallbacks, then the thread says each with its place, as wavesync plan does", async () => {
    const { target, make } = await setup();
    const reporter = make();
    const events = prePostSyncEvents();
    const started = events[0]! as Extract<SyncEvent, { type: 'OperationStarted' }>;
    const fallback =
      'ConfigMap/half: annotation argocd.argoproj.io/sync-wave: "1.5" is not an integer (Go strconv.Atoi syntax); Argo CD falls back to 0 (app.yaml:1)';

    await feed(
      reporter,
      [
        { ...started, operation: { ...started.operation, dryRun: true }, fallbacks: [fallback] },
        ...events.slice(1),
      ],
      5,
    );

    const thread = fake.thread(CHANNEL, target.threadTs).map(text).join('\n');
    expect(thread.split('\n').filter((l) => l.includes('falls back'))).toEqual([`⚠️ ${fallback}`]);
  });

  it('when Slack answers 429, then the reporter waits Retry-After and delivers everything in order', async () => {
    const { target, make } = await setup({ postIntervalMs: 1000, burst: 1 }, { pacer: new ChannelPacer(0) });
    const reporter = make();

    await feed(reporter, prePostSyncEvents(), 15);

    const posts = fake.calls('chat.postMessage');
    const limited = posts.findIndex((c) => c.status === 429);
    expect(limited).toBeGreaterThan(0);
    expect(posts[limited + 1]!.at - posts[limited]!.at).toBeGreaterThanOrEqual(990);
    const lines = fake.thread(CHANNEL, target.threadTs).map(text).join('\n').split('\n');
    expect(lines[0]).toBe('▶ PreSync · wave 0 — running hook Job/pre-post-sync-before');
    expect(lines[lines.length - 1]).toBe(
      '🎉 Succeeded in 32 s · Healthy after 42 s · 2 resources synced, 2 hooks run',
    );
    expect(lines).toHaveLength(9);
  });

  const RETRY_REASON = 'discover API groups: the API server could not be reached (connection reset: …)';
  it.each<[string, Partial<SlackReporterOptions>, string]>([
    ['a worker restarts', {}, '↻ Resumed by another worker; continuing in this thread.'],
    [
      'the same worker takes its job back after its lock lapsed',
      { resumedFrom: 'this-worker' },
      '↻ Resumed by this worker after its job lock lapsed; continuing in this thread.',
    ],
    [
      'another worker takes the job over',
      { resumedFrom: 'another-worker' },
      '↻ Resumed by another worker; continuing in this thread.',
    ],
    [
      // Before: "Resumed by another worker" for a retry of the same (and only) worker.
      'BullMQ runs the job again after a transient error',
      { retry: { attempt: 2, attempts: 5, reason: RETRY_REASON } },
      `↻ Retrying (attempt 2 of 5) after: ${RETRY_REASON}; continuing in this thread.`,
    ],
  ])(
    'when %s, then a new reporter with the same target continues the same thread and header, and says why',
    async (_, more, resumedLine) => {
      const { target, make } = await setup();
      const events = prePostSyncEvents();
      const cut = events.findIndex((e) => e.type === 'WaveStarted' && e.wave.phase === 'Sync');
      const first = make();
      for (const e of events.slice(0, cut)) await first.report(e);
      await first.close();
      const resumed = events.slice(cut).map((e) => e);
      const start = events[0]!;

      await feed(make(more), [{ ...start, resumed: true } as SyncEvent, ...resumed], 25);

      const lines = fake.thread(CHANNEL, target.threadTs).map(text).join('\n').split('\n');
      expect(lines.slice(0, 4)).toEqual([
        '▶ PreSync · wave 0 — running hook Job/pre-post-sync-before',
        '✓ PreSync hook Job/pre-post-sync-before succeeded in 9.8 s',
        '✓ PreSync · wave 0 — done after 10 s',
        resumedLine,
      ]);
      expect(lines[lines.length - 1]).toContain('🎉 Succeeded');
      expect(fake.channelMessages(CHANNEL)).toHaveLength(1);
    },
  );

  it('when a hook fails with a huge log, then the reply fits Slack limits and keeps the newest lines', async () => {
    const { target, make } = await setup();
    const events = prePostSyncEvents({ failPreSync: true }).map((e) =>
      e.type === 'HookFinished'
        ? { ...e, logTail: Array.from({ length: 2000 }, (_, i) => `log line ${i} ${'#'.repeat(60)}`) }
        : e,
    );

    await feed(make(), events, 0);

    expect(fake.calls().filter((c) => c.response.ok !== true)).toEqual([]);
    const all = fake.thread(CHANNEL, target.threadTs).map(text).join('\n');
    expect(all).toMatch(/last \d+ of 2000 log lines/);
    expect(all).toContain('log line 1999 ');
  });

  it('when Slack refuses a reply for good, then it is reported as dropped and the rest of the thread follows', async () => {
    const dropped: string[] = [];
    const { target, make } = await setup();
    fake.failNext('chat.postMessage', 'msg_too_long');

    await feed(make({ onDropped: (what) => dropped.push(what) }), prePostSyncEvents(), 25);

    expect(dropped).toEqual(['thread reply']);
    const lines = fake.thread(CHANNEL, target.threadTs).map(text).join('\n').split('\n');
    expect(lines[lines.length - 1]).toContain('🎉 Succeeded');
  });

  describe('exactly once', () => {
    const prefix = `wavesync-test-21-${process.pid}-${Date.now()}`;
    let redis: Redis | undefined;
    afterEach(async () => {
      if (!redis) return;
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      redis = undefined;
    });

    /** The Sync wave's start is posted, then the worker dies; the resuming engine re-emits from that wave. */
    async function resumeMidSync(storeOf: (store: PostedLines, first: boolean) => PostedLines) {
      redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
      const store = redisPostedLines(redis, prefix, 'job-1');
      const { target, make } = await setup();
      const events = prePostSyncEvents();
      const cut = events.findIndex((e) => e.type === 'WaveStarted' && e.wave.phase === 'Sync');
      await feed(make({ posted: storeOf(store, true) }), events.slice(0, cut + 1), 25);
      const start = events[0]!;
      await feed(
        make({ posted: storeOf(store, false) }),
        [{ ...start, resumed: true } as SyncEvent, ...events.slice(cut)],
        25,
      );
      return fake.thread(CHANNEL, target.threadTs).map(text).join('\n').split('\n');
    }

    const RESUMED_THREAD = [
      ...PRE_POST_SYNC_THREAD.slice(0, 4),
      '↻ Resumed by another worker; continuing in this thread.',
      ...PRE_POST_SYNC_THREAD.slice(4),
    ];

    it('when a resumed worker re-emits the wave it was in, then no line is posted twice', async () => {
      const lines = await resumeMidSync((store) => store);

      expect(lines).toEqual(RESUMED_THREAD);
    });

    it('when the worker died after Slack answered but before it recorded the post, then the thread metadata tells the resumed one', async () => {
      // The first worker records only its first post: its later ones were answered but never written down.
      let records = 0;
      const lines = await resumeMidSync((store, first) =>
        first
          ? {
              load: () => store.load(),
              record: (k, ts) => (++records > 1 ? Promise.resolve(new Map()) : store.record(k, ts)),
            }
          : store,
      );

      expect(records).toBeGreaterThan(1);
      expect(lines).toEqual(RESUMED_THREAD);
    });

    it('when the worker died before it recorded any post (its first post held several lines), then the resumed one reads the thread', async () => {
      // Seen in a clean-clone CI run: the first post coalesced "wave 1 — done" with the next lines, the worker died
      // before recording it, and the resumed worker, finding no record, posted "wave 1 — done" again.
      const lines = await resumeMidSync((store, first) =>
        first
          ? {
              load: () => store.load(),
              record: (k, ts) => (k.includes('!opened') ? store.record(k, ts) : Promise.resolve(new Map())),
            }
          : store,
      );

      expect(lines).toEqual(RESUMED_THREAD);
    });

    it('when a chat.postMessage is done but its answer is lost to the client timeout, then it is posted once', async () => {
      const { target, make } = await setup({}, {}, { timeoutMs: 300 });
      fake.stallNext('chat.postMessage', 1500);
      fake.stallNext('chat.postMessage', 1500);

      await feed(make(), prePostSyncEvents(), 25);

      const stalled = fake.calls('chat.postMessage').filter((c) => c.response.ok === true);
      expect(stalled.length).toBeGreaterThan(0);
      const lines = fake.thread(CHANNEL, target.threadTs).map(text).join('\n').split('\n');
      expect(lines).toEqual(PRE_POST_SYNC_THREAD);
    });
  });
  describe('durable outbox', () => {
    const prefix = `wavesync-test-21o-${process.pid}-${Date.now()}`;
    let redis: Redis;
    afterEach(async () => {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });

    /** A reporter of job-1 with its posted-lines record and outbox (a new deliverer token each time). */
    async function durable(fakeOptions: { postIntervalMs?: number } = {}) {
      redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
      const env = await setup(fakeOptions);
      const stores = () => ({
        posted: redisPostedLines(redis, prefix, 'job-1'),
        outbox: redisThreadOutbox(redis, prefix, 'job-1'),
      });
      const lines = () => fake.thread(CHANNEL, env.target.threadTs).map(text).join('\n').split('\n');
      return { ...env, stores, lines };
    }

    /** A worker whose Slack is unreachable (connection refused): it retries, and posts nothing. */
    function unreachable(): WebClient {
      return createSlackWebClient({
        botToken: 'xoxb-test-token',
        apiUrl: 'http://127.0.0.1:9/api/',
        retries: 0,
      });
    }

    /** A ThreadPoster of job-1's thread with its posted-lines record and `outbox`. */
    function posterOf(
      client: WebClient,
      target: { channel: string; threadTs: string },
      outbox: ThreadOutbox,
    ) {
      return new ThreadPoster({
        chat: slackChat(client),
        target,
        pacer: new ChannelPacer(20),
        budget: new CallBudget(),
        posted: redisPostedLines(redis, prefix, 'job-1'),
        scope: 'job-1',
        outbox,
      });
    }

    it('when a worker dies with lines not yet posted, then the resumed reporter delivers them first, each once', async () => {
      const { make, stores, lines } = await durable();
      const events = prePostSyncEvents();
      const cut = events.findIndex((e) => e.type === 'WaveCompleted' && e.wave.phase === 'Sync');
      // The first worker reports up to the Sync wave's end (the engine persisted it), but posts nothing: it dies.
      const dead = make({ ...stores(), client: unreachable() });
      for (const e of events.slice(0, cut + 1)) await dead.report(e);

      await feed(
        make(stores()),
        [{ ...events[0]!, resumed: true } as SyncEvent, ...events.slice(cut + 1)],
        25,
      );
      await dead.close(); // its next attempt finds the thread taken over: it stops, posting nothing

      expect(lines()).toEqual([
        ...PRE_POST_SYNC_THREAD.slice(0, 5),
        '↻ Resumed by another worker; continuing in this thread.',
        ...PRE_POST_SYNC_THREAD.slice(5),
      ]);
      expect(await redis.zcard(outboxesKey(prefix))).toBe(0);
      expect(await redis.keys(`${prefix}:thread:outbox:*`)).toEqual([]);
    });

    it('when a stale worker reports after another took its thread over, then it posts nothing and the newer header stays', async () => {
      const { target, make, stores, lines } = await durable();
      const events = prePostSyncEvents();
      const cut = events.findIndex((e) => e.type === 'WaveStarted' && e.wave.phase === 'Sync');
      const stale = make(stores());
      for (const e of events.slice(0, cut)) await stale.report(e);
      await expect.poll(() => lines().length, { timeout: 5_000 }).toBe(3);

      await feed(make(stores()), [{ ...events[0]!, resumed: true } as SyncEvent, ...events.slice(cut)], 25);
      const callsBefore = fake.calls().length;
      await feed(stale, events.slice(cut, cut + 2), 25); // it wakes up and goes on with its old run

      expect(fake.calls().slice(callsBefore)).toEqual([]);
      expect(lines().filter((l) => l.startsWith('▶ Sync'))).toHaveLength(1);
      expect(text(fake.message(CHANNEL, target.threadTs)!)).toContain('Succeeded');
    });

    it('when a deliverer whose thread was taken over wakes up, then it makes no Slack call at all, not even a thread read', async () => {
      const { target, client } = await durable();
      const a = redisThreadOutbox(redis, prefix, 'job-1');
      await a.open({ target, takeover: true });
      const stale = posterOf(client, target, a);
      await redisPostedLines(redis, prefix, 'job-1').record(['started:Sync:0#1'], '1.000001'); // the new one's post
      await redisThreadOutbox(redis, prefix, 'job-1').open({ target, takeover: true });
      const callsBefore = fake.calls().length;

      await stale.reply([{ message: textMessage('▶ Sync · wave 0'), keys: ['started:Sync:0#1'] }], 0, false);
      await stale.updateHeader(textMessage('🔄 Running'));
      await stale.announceDrops();

      expect(stale.stale).toBe(true);
      expect(fake.calls().slice(callsBefore)).toEqual([]);
    });

    it('when a deliverer paused between its lease check and its post repeats a line another posted first, then its copy is deleted', async () => {
      const { target, client, lines } = await durable();
      const poster = (outbox: ThreadOutbox) => posterOf(client, target, outbox);
      const line = [
        { message: textMessage('✓ Sync · wave 0 — 2 resources Healthy'), keys: ['done:Sync:0:ok#1'] },
      ];
      // A holds the thread; its lease checks pass, then it is paused right before posting.
      const a = redisThreadOutbox(redis, prefix, 'job-1');
      await a.open({ target, takeover: true });
      let resume!: () => void;
      const paused = new Promise<void>((r) => {
        resume = r;
      });
      let atPost!: () => void;
      const reached = new Promise<void>((r) => {
        atPost = r;
      });
      let checks = 0;
      // Its third check is the one right before chat.postMessage (after reply()'s and the loop's).
      const pausedA: ThreadOutbox = {
        ...a,
        holds: () => {
          if (++checks !== 3) return a.holds();
          atPost();
          return paused.then(() => true);
        },
      };
      const posting = poster(pausedA).reply(line, 0, false);
      await reached;
      // Meanwhile B takes the thread over and posts the same line.
      const b = redisThreadOutbox(redis, prefix, 'job-1');
      await b.open({ target, takeover: true });
      await poster(b).reply(line, 0, false);

      resume();
      await posting;

      expect(fake.calls('chat.postMessage').filter((c) => c.response.ok === true)).toHaveLength(3); // root + 2
      expect(fake.calls('chat.delete')).toHaveLength(1);
      expect(lines()).toEqual(['✓ Sync · wave 0 — 2 resources Healthy']);
      const first = fake.thread(CHANNEL, target.threadTs)[0]!.ts;
      expect((await redisPostedLines(redis, prefix, 'job-1').load()).get('done:Sync:0:ok#1')).toBe(first);
    });

    it('when Slack is down past the retention, then the lines given up are said in the thread once it answers again', async () => {
      const dropped: string[] = [];
      let linesDropped = 0;
      const { make, stores, lines } = await durable();
      const events = prePostSyncEvents();
      const cut = events.findIndex((e) => e.type === 'WaveStarted' && e.wave.phase === 'Sync');
      const reporter = make({
        ...stores(),
        retentionMs: 400,
        onDropped: (w, n) => {
          dropped.push(w);
          linesDropped += n;
        },
      });
      fake.outage(1_500);
      for (const e of events.slice(0, cut)) await reporter.report(e);
      await expect.poll(() => dropped.length, { timeout: 5_000 }).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 1_600)); // Slack answers again

      await feed(reporter, events.slice(cut), 25);

      const notices = lines().filter((l) => l.includes('could not be delivered'));
      const given = dropped.filter((w) => w === 'thread reply').length;
      expect(given).toBeGreaterThan(0);
      const missing = PRE_POST_SYNC_THREAD.filter((l) => !lines().includes(l)).length;
      expect(missing).toBeGreaterThan(0);
      expect(linesDropped).toBe(missing);
      expect(notices).toEqual([
        `⚠️ ${missing === 1 ? '1 progress line' : `${missing} progress lines`} could not be delivered (Slack was unavailable); the job's events have the full story.`,
      ]);
      expect(await redis.zcard(outboxesKey(prefix))).toBe(0);
    });

    /** A Slack that takes every request and never answers: a worker frozen in its call, then killed. */
    async function silentSlack(): Promise<{ client: WebClient; close(): Promise<void> }> {
      const sockets = new Set<Socket>();
      const server = createServer((socket) => {
        sockets.add(socket);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const client = createSlackWebClient({
        botToken: 'xoxb-test-token',
        apiUrl: `http://127.0.0.1:${port}/api/`,
        retries: 0,
        timeoutMs: 600_000,
      });
      return {
        client,
        close: async () => {
          for (const socket of sockets) socket.destroy();
          await new Promise((resolve) => server.close(resolve));
        },
      };
    }

    it('when the worker dies after its job ended but before its thread was posted, then the sweeper leaves the header final', async () => {
      const { target, lines, make } = await durable();
      const silent = await silentSlack();
      try {
        // The job's reporter hands its delivery to the worker at close(); the worker is killed before Slack answered
        // any of it (its calls never return, its lease lapses).
        const outbox = redisThreadOutbox(redis, prefix, 'job-1', { leaseMs: 300 });
        const detached: Promise<void>[] = [];
        const reporter = make({
          client: silent.client,
          posted: redisPostedLines(redis, prefix, 'job-1'),
          outbox,
          detach: (delivery) => detached.push(delivery),
        });
        await feed(reporter, prePostSyncEvents(), 0);
        expect(detached).toHaveLength(1);
        await new Promise((resolve) => setTimeout(resolve, 400));

        const closed = await sweepOutboxes({
          outboxes: redisThreadOutboxes(redis, prefix),
          postedLines: (jobId) => redisPostedLines(redis, prefix, jobId),
          chat: slackChat(createSlackWebClient({ botToken: fake.botToken, apiUrl: fake.apiUrl, retries: 0 })),
          pacer: new ChannelPacer(20),
          jobEnded: async () => true,
          idleMs: 0,
        });

        expect(closed).toEqual(['job-1']);
        expect(lines()).toEqual(PRE_POST_SYNC_THREAD);
        expect(text(fake.message(CHANNEL, target.threadTs)!).split('\n')[0]).toBe(
          '✅ guestbook → staging  ·  Succeeded  ·  Healthy  ·  0:32',
        );
      } finally {
        await silent.close();
      }
    });

    it('when a job ended with lines left in its outbox, then the sweeper delivers them, applies the last header and closes it', async () => {
      const { target, client, lines } = await durable();
      // What a worker that died during the Sync wave leaves: five lines appended, none posted, a header state stored
      // but never applied, and a lease that lapsed.
      const left = redisThreadOutbox(redis, prefix, 'job-1');
      await left.open({ target, takeover: true });
      await left.append(
        PRE_POST_SYNC_THREAD.slice(0, 5).map((line, i) => ({
          key: `line-${i}#1`,
          message: textMessage(line),
          broadcast: false,
          hookOutcome: false,
        })),
      );
      await left.storeHeader(textMessage('🔄 guestbook → staging · Running · Sync wave 0'), false);
      await redis.del(`${prefix}:thread:outbox:job-1:lease`);
      const sweep = (jobEnded: boolean) =>
        sweepOutboxes({
          outboxes: redisThreadOutboxes(redis, prefix),
          postedLines: (jobId) => redisPostedLines(redis, prefix, jobId),
          chat: slackChat(client),
          pacer: new ChannelPacer(20),
          jobEnded: async () => jobEnded,
          idleMs: 0,
        });

      expect(await sweep(false)).toEqual([]); // its job still runs: left to its reporter
      const closed = await sweep(true);

      expect(closed).toEqual(['job-1']);
      expect(lines()).toEqual(PRE_POST_SYNC_THREAD.slice(0, 5));
      expect(text(fake.message(CHANNEL, target.threadTs)!)).toBe(
        '🔄 guestbook → staging · Running · Sync wave 0',
      );
      expect(await redis.keys(`${prefix}:thread:outbox*`)).toEqual([]);
      expect(await redis.zcard(outboxesKey(prefix))).toBe(0);
      expect(await left.holds()).toBe(false); // the dead worker, were it to wake up, is not the deliverer any more
    });
  });
});
