/**
 * The Kubernetes API server gone mid-sync, black-box: `wavesync bot` and `wavesync worker` as real processes on the
 * real Redis (a unique prefix), the fake Slack Web API over HTTP, and the simulator at speed 1 behind a TCP proxy
 * (support/tcp-proxy.ts) that the test cuts while the `rails` sync runs its PreSync migration hook. The retry budget
 * is the documented one (docs/queue.md "The Kubernetes API gone"), set small here: WAVESYNC_SYNC_ATTEMPTS=3,
 * WAVESYNC_SYNC_BACKOFF_MS=1000.
 * - connections reset / refused for `KUBE_OUTAGE_MS` (default 60 s, the case): the operation ends with
 *   phase Error within the budget, before the API is back; header, failure line and exactly one #alerts notice say
 *   "the API server could not be reached"; no line twice; a /sync after the API is back succeeds;
 * - a partition (connections accepted, no byte moves) for `KUBE_HANG_MS` (default 40 s: past the 30 s request
 *   timeout, within its tries): the sync rides it out and completes once — thread complete, no line twice, no alert.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { threadText } from '../../src/demo/check-outcomes.js';
import { ALERTS_CHANNEL, DEMO_APPS, type DemoApp } from '../../src/demo/demo-scenario.js';
import type { FakeMessage } from '../../src/demo/fake-slack/fake-slack-api.js';
import { type E2eStack, startE2eStack } from './support/e2e-stack.js';
import type { ProxyMode } from './support/tcp-proxy.js';

const app: DemoApp = DEMO_APPS.find((a) => a.application === 'rails')!;
const OUTAGE_MS = Number(process.env.KUBE_OUTAGE_MS ?? 60_000);
const HANG_MS = Number(process.env.KUBE_HANG_MS ?? 40_000);
/** The budget set below: 3 runs, 1 s and 2 s apart, each ≤ ~7 s of per-request retries (6 tries, ≤ 6.2 s backoff). */
const BUDGET = { attempts: 3, backoffMs: 1000, maxMs: 30_000 };
const UNDISTURBED = [
  '▶ PreSync · wave 1 — running hook ConfigMap/rails-env',
  '✓ PreSync hook ConfigMap/rails-env succeeded in #',
  '✓ PreSync · wave 1 — done after #',
  '▶ PreSync · wave 2 — running hook Job/db-migrate',
  '✓ PreSync hook Job/db-migrate succeeded in #',
  '✓ PreSync · wave 2 — done after #',
  '▶ Sync · wave 0 — applying 3 resources: Service/web, Deployment/web, Ingress/web',
  '✓ Sync · wave 0 — 3 resources Healthy after #',
  '▶ PostSync · wave 0 — running hook Job/smoke-test',
  '✓ PostSync hook Job/smoke-test succeeded in #',
  '✓ PostSync · wave 0 — done after #',
  '🎉 Succeeded in # · Healthy after # · 3 resources synced, 3 hooks run',
];
describe('test/e2e/kube-outage', () => {
  let s: E2eStack;
  let syncs = 0;

  beforeAll(async () => {
    s = await startE2eStack({
      speed: 1,
      kubeProxy: true,
      extraEnv: {
        WAVESYNC_SYNC_ATTEMPTS: String(BUDGET.attempts),
        WAVESYNC_SYNC_BACKOFF_MS: String(BUDGET.backoffMs),
      },
    });
  }, 240_000);
  afterAll(async () => s?.close(), 60_000);

  async function start(): Promise<FakeMessage> {
    const before = new Set(roots().map((m) => m.ts));
    const n = ++syncs;
    const sent = await s.client.sendCommand({
      text: app.application,
      channelId: app.channel,
      userId: `U0OUTAGE${n}`,
      userName: `outage${n}`,
      responseUrl: s.slack.responseUrl(app.channel),
    });
    expect(sent.status).toBe(200);
    return s.slack.waitFor(() => roots().find((m) => !before.has(m.ts)), 30_000);
  }

  async function end(root: FakeMessage, timeoutMs: number): Promise<void> {
    await s.slack.waitFor(
      () => isFinal(header(root)) && lines(root).some((l) => /^(🎉|❌|⚠️)/.test(l)),
      timeoutMs,
    );
  }

  function roots(): FakeMessage[] {
    return s.slack.channelMessages(app.channel).filter((m) => !m.threadTs);
  }
  function header(root: FakeMessage): string {
    return s.slack.message(app.channel, root.ts)?.text ?? '';
  }
  function lines(root: FakeMessage): string[] {
    return threadText(s.slack, app.channel, root.ts).split('\n').map(withoutDurations);
  }
  function alerts(): string[] {
    return s.slack
      .channelMessages(ALERTS_CHANNEL)
      .map((m) => JSON.stringify(m))
      .filter((t) => t.includes(app.application));
  }

  /** Cut the API (`mode`) once the migration hook runs; resolves with the thread's root and the cut's time. */
  async function cutMidSync(mode: ProxyMode): Promise<{ root: FakeMessage; cutAt: number }> {
    const root = await start();
    await s.slack.waitFor(() => lines(root).some((l) => l.includes('PreSync · wave 2')), 60_000);
    s.kubeProxy!.setMode(mode);
    return { root, cutAt: Date.now() };
  }

  function report(what: string, root: FakeMessage, endedAfterMs: number, alertsBefore: number): void {
    console.info(
      `kube-outage ${what}: ended ${endedAfterMs} ms after the cut; header: ${header(root)}\n${lines(root).join('\n')}\nalerts: ${alerts().slice(alertsBefore).join('\n')}`,
    );
  }

  it(`when the API server refuses and resets connections for ${OUTAGE_MS / 1000} s mid-sync, then the thread and #alerts say Error with the reason, once, within the retry budget`, async () => {
    const alertsBefore = alerts().length;
    const { root, cutAt } = await cutMidSync('refuse');
    let endedAfterMs = Number.NaN;
    try {
      await end(root, OUTAGE_MS);
      endedAfterMs = Date.now() - cutAt;
    } finally {
      report('refuse', root, endedAfterMs, alertsBefore);
    }
    // The API stays away for the whole outage: nothing may trickle in later (a second notice, a repeated line).
    await new Promise((r) => setTimeout(r, Math.max(0, cutAt + OUTAGE_MS - Date.now())));
    s.kubeProxy!.setMode('pass');
    await new Promise((r) => setTimeout(r, 2_000));
    const thread = lines(root);
    const failure = thread.filter((l) => l.startsWith('❌'));

    expect(endedAfterMs).toBeLessThan(BUDGET.maxMs);
    expect(header(root)).toMatch(/Error/);
    expect(header(root)).toContain('the API server could not be reached (connection reset');
    expect(header(root)).toContain(`gave up after ${BUDGET.attempts} attempts`);
    expect(failure).toHaveLength(1);
    expect(failure[0]).toMatch(/^❌ Error in # · .*the API server could not be reached \(connection reset/);
    expect(thread.filter((l, i) => thread.indexOf(l) !== i)).toEqual([]);
    expect(thread.filter((l) => l.includes('another worker'))).toEqual([]); // one worker: retries are not resumptions
    const notices = alerts().slice(alertsBefore);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('errored');
    expect(notices[0]).toContain('the API server could not be reached');

    const next = await start();
    await end(next, 120_000);
    expect(header(next)).toMatch(/Succeeded/);
    expect(lines(next).at(-1)).toMatch(/^🎉 Succeeded/);
  }, 300_000);

  it(`when the API server is partitioned away (connections hang) for ${HANG_MS / 1000} s mid-sync, then the sync completes once after it, thread complete`, async () => {
    const alertsBefore = alerts().length;
    const { root, cutAt } = await cutMidSync('hang');
    setTimeout(() => s.kubeProxy!.setMode('pass'), HANG_MS);
    let endedAfterMs = Number.NaN;
    try {
      await end(root, HANG_MS + 120_000);
      endedAfterMs = Date.now() - cutAt;
    } finally {
      report('hang', root, endedAfterMs, alertsBefore);
    }
    await new Promise((r) => setTimeout(r, 2_000));
    const thread = lines(root);
    const got = thread.filter((l) => !l.startsWith('↻ '));

    expect(endedAfterMs).toBeGreaterThanOrEqual(HANG_MS);
    expect(header(root)).toMatch(/Succeeded/);
    expect(got).toEqual(UNDISTURBED);
    // A run of the job after a transient error says so, with the error; never "another worker" (there is one).
    expect(thread.filter((l) => l.startsWith('↻ ') && !l.startsWith('↻ Retrying (attempt '))).toEqual([]);
    expect(
      alerts()
        .slice(alertsBefore)
        .filter((t) => /errored|failed/.test(t)),
    ).toEqual([]);
  }, 300_000);
});

/** The header's fallback text once the operation ended. */
function isFinal(text: string): boolean {
  return /Succeeded|Failed|Error|Terminated|Cancelled/i.test(text) && !/Running/.test(text);
}

/**
 * A thread line with its timings ("after 3 s", "in 9.8 s", "1:02") blanked, and without what a wave waited for
 * (` · waited for …`, said only when no header update showed it: it depends on the header's throttling).
 */
function withoutDurations(line: string): string {
  return line
    .replace(/ · waited for .*$/, '')
    .replace(/\b\d+(\.\d+)? ?(ms|s|min)\b/g, '#')
    .replace(/\b\d+:\d\d\b/g, '#');
}
