/**
 * Socket Mode end to end: `wavesync bot` (SLACK_APP_TOKEN, no signing secret) and `wavesync worker` as child
 * processes; the bot's real Bolt SocketModeReceiver opens its link with apps.connections.open on the fake Web API
 * and receives `slash_commands` and `interactive` envelopes over a real WebSocket (FakeSocketMode), acking each
 * with its envelope_id. A re-delivered envelope must not queue a second job; a `disconnect` (refresh_requested)
 * mid-sync must leave the sync and its thread complete and the next command working.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { approveAs } from '../../src/demo/approve-as.js';
import { checkOutcomes, threadText } from '../../src/demo/check-outcomes.js';
import { DEMO_APPS, DEMO_USERS, type DemoApp } from '../../src/demo/demo-scenario.js';
import { createSyncQueue } from '../../src/queue/index.js';
import { type E2eStack, startE2eStack } from './support/e2e-stack.js';
import { threadRoots } from './support/thread-checks.js';

const app = (name: string): DemoApp => DEMO_APPS.find((a) => a.application === name)!;

describe('test/e2e/socket-mode', () => {
  let stack: E2eStack | undefined;
  afterEach(async () => {
    await stack?.close();
    stack = undefined;
  });

  it('when /sync, a re-delivered envelope and an Approve click come over the socket, then each is acked with its envelope_id within 3 s and one job runs per request', async () => {
    stack = await startE2eStack({ speed: 20, socketMode: true });
    const s = stack;
    const socket = s.slack.socketMode!;
    const guestbook = app('guestbook');
    const payments = app('payments');

    const first = await s.sync(guestbook);
    const [envelope] = socket.envelopes();
    // Slack re-sends an envelope whose ack it lost: same envelope_id, retry_attempt 1.
    const again = await socket.redeliver(envelope!.envelopeId, 'timeout');
    await s.sync(payments);
    const click = await approveAs(s.slack, s.client, {
      channel: payments.channel,
      user: DEMO_USERS.approver,
      timeoutMs: 20_000,
    });
    const outcomes = await checkOutcomes({
      apps: [guestbook, payments],
      env: s,
      acks: new Map(),
      timeoutMs: 90_000,
    });

    expect(s.slack.calls('apps.connections.open').map((c) => c.response.ok)).toEqual([true]);
    expect(first).toBeLessThan(3000);
    expect(again.status).toBe(200);
    expect(click.status).toBe(200);
    expect(socket.envelopes().map((e) => [e.type, e.sends.length, e.ack !== undefined])).toEqual([
      ['slash_commands', 2, true],
      ['slash_commands', 1, true],
      ['interactive', 1, true],
    ]);
    expect(socket.envelopes()[0]!.sends[1]).toMatchObject({ retryAttempt: 1, retryReason: 'timeout' });
    // Slack's deadline: every envelope (the re-delivery included) acked within 3 s of its send.
    expect(socket.envelopes().map((e) => (e.ackMs ?? Number.POSITIVE_INFINITY) < 3000)).toEqual([
      true,
      true,
      true,
    ]);
    expect(outcomes.map((o) => [o.application, o.phase, o.problems])).toEqual([
      ['guestbook', 'Succeeded', []],
      ['payments', 'Succeeded', []],
    ]);
    expect(threadRoots(s, guestbook.channel)).toHaveLength(1);
    const queue = createSyncQueue({ connection: s.config.redis, prefix: s.config.queue.prefix });
    try {
      expect(await queue.history('guestbook', 10)).toHaveLength(1);
      expect(await queue.history('payments', 10)).toHaveLength(1);
    } finally {
      await queue.close();
    }
  }, 240_000);

  it('when Slack sends disconnect (refresh_requested) mid-sync, then the bot reconnects, the sync and its thread complete, and the next /sync works', async () => {
    stack = await startE2eStack({ speed: 1, socketMode: true });
    const s = stack;
    const socket = s.slack.socketMode!;
    const rails = app('rails');
    const guestbook = app('guestbook');

    await s.sync(rails);
    const root = await s.slack.waitFor(
      () => s.slack.channelMessages(rails.channel).find((m) => !m.threadTs),
      20_000,
    );
    await s.slack.waitFor(
      () => threadText(s.slack, rails.channel, root.ts).includes('PreSync · wave 2'),
      60_000,
    );
    const finishedBeforeRefresh = threadText(s.slack, rails.channel, root.ts).includes('Succeeded');
    socket.refresh();
    await s.slack.waitFor(() => socket.connectionCount === 2 && socket.connections === 1, 30_000);
    const ack = await s.sync(guestbook);
    const outcomes = await checkOutcomes({
      apps: [rails, guestbook],
      env: s,
      acks: new Map(),
      timeoutMs: 120_000,
    });

    expect(finishedBeforeRefresh).toBe(false);
    expect(s.slack.calls('apps.connections.open')).toHaveLength(2);
    expect(ack).toBeLessThan(3000);
    expect(outcomes.map((o) => [o.application, o.phase, o.problems])).toEqual([
      ['rails', 'Succeeded', []],
      ['guestbook', 'Succeeded', []],
    ]);
    expect(threadRoots(s, rails.channel)).toEqual([root.ts]);
    expect(socket.envelopes().every((e) => e.ack !== undefined && e.sends.length === 1)).toBe(true);
  }, 240_000);
});
