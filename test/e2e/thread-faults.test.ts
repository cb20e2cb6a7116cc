/**
 * Each thread line exactly once through an operator's bad day, black-box: `wavesync bot` and `wavesync worker` as
 * real processes on the real Redis (a unique prefix), the fake Slack Web API over HTTP and the Kubernetes API
 * simulator at speed 1, the `rails` demo app (PreSync ConfigMap + migration Job, web, PostSync smoke test).
 * An undisturbed sync gives the reference thread; every disturbed sync must end with the same lines (timings
 * blanked), none twice, none missing, and a final header:
 * - worker SIGKILLed at a random moment of the sync, a new worker started (`THREAD_KILL_TRIALS`, default 3; the
 *   20-trial figures are in docs/queue.md);
 * - a worker frozen (SIGSTOP) past its lock while a second worker takes the job over, then resumed (SIGCONT);
 * - Slack answering HTTP 500 from the thread's first reply on for `THREAD_OUTAGE_MS` (default 20 s: mid-sync), and
 *   until `THREAD_OUTAGE_AFTER_MS` after the sync's end (default 10 s; 60 s recorded in docs/queue.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { threadText } from '../../src/demo/check-outcomes.js';
import { DEMO_APPS, type DemoApp } from '../../src/demo/demo-scenario.js';
import type { FakeMessage } from '../../src/demo/fake-slack/fake-slack-api.js';
import { type E2eStack, startE2eStack } from './support/e2e-stack.js';
import { startWavesyncProcess, type WavesyncProcess } from './support/wavesync-process.js';

const app: DemoApp = DEMO_APPS.find((a) => a.application === 'rails')!;
const KILL_TRIALS = Number(process.env.THREAD_KILL_TRIALS ?? 3);
const OUTAGE_MS = Number(process.env.THREAD_OUTAGE_MS ?? 20_000);
const OUTAGE_AFTER_MS = Number(process.env.THREAD_OUTAGE_AFTER_MS ?? 10_000);
const RESUMED = '↻ Resumed by another worker; continuing in this thread.';

describe('test/e2e/thread-faults', () => {
  let s: E2eStack;
  /** The undisturbed thread (timings blanked), and how long it takes from the first reply to the summary (ms). */
  let reference: string[];
  let spanMs: number;
  let syncs = 0;

  beforeAll(async () => {
    s = await startE2eStack({ speed: 1 });
    await syncToEnd(); // creates the app: the reference is a sync of a live app, like every trial
    const run = await syncToEnd();
    reference = run.lines;
    spanMs = run.spanMs;
    expect(reference.at(-1)).toMatch(/^🎉 Succeeded/);
  }, 240_000);
  afterAll(async () => s?.close(), 60_000);

  /** `/sync rails`; resolves with the new header's ts once its first reply is in the thread. */
  async function start(): Promise<{ root: FakeMessage; firstReplyAt: number }> {
    const before = new Set(roots().map((m) => m.ts));
    // A different requester each time: the same person's same /sync within 60 s is a duplicate (one job).
    const n = ++syncs;
    const sent = await s.client.sendCommand({
      text: app.application,
      channelId: app.channel,
      userId: `U0TRIAL${n}`,
      userName: `trial${n}`,
      responseUrl: s.slack.responseUrl(app.channel),
    });
    expect(sent.status).toBe(200);
    const root = await s.slack
      .waitFor(() => roots().find((m) => !before.has(m.ts)), 30_000)
      .catch((err: Error) => {
        const calls = s.slack
          .calls()
          .map((c) => `${c.method} ${c.status} ${JSON.stringify(c.response).slice(0, 120)}`);
        const logs = s.bot.logs.map((l) => JSON.stringify(l).slice(0, 300));
        throw new Error(`${err.message}\ncalls:\n${calls.join('\n')}\nbot:\n${logs.join('\n')}`);
      });
    await s.slack.waitFor(() => s.slack.thread(app.channel, root.ts).length > 0, 60_000);
    return { root, firstReplyAt: Date.now() };
  }

  /** Wait until the thread has its summary and the header its final state; then a moment for late repeats. */
  async function end(root: FakeMessage, timeoutMs = 180_000): Promise<string[]> {
    await s.slack.waitFor(() => {
      const header = s.slack.message(app.channel, root.ts)!;
      return isFinal(header.text) && lines(root).some((l) => /^(🎉|❌)/.test(l));
    }, timeoutMs);
    await new Promise((r) => setTimeout(r, 1_500));
    return lines(root);
  }

  async function syncToEnd(): Promise<{ lines: string[]; spanMs: number }> {
    const { root, firstReplyAt } = await start();
    const thread = await end(root);
    return { lines: thread, spanMs: Date.now() - 1_500 - firstReplyAt };
  }

  function roots(): FakeMessage[] {
    return s.slack.channelMessages(app.channel).filter((m) => !m.threadTs);
  }

  function lines(root: FakeMessage): string[] {
    return threadText(s.slack, app.channel, root.ts).split('\n').map(withoutDurations);
  }

  /** Duplicated and missing lines against the reference (the resumption notices aside). */
  function compare(thread: string[]): { duplicated: string[]; missing: string[]; extra: string[] } {
    const got = thread.filter((l) => l !== RESUMED);
    return {
      duplicated: got.filter((l, i) => got.indexOf(l) !== i),
      missing: reference.filter((l) => !got.includes(l)),
      extra: got.filter((l) => !reference.includes(l) && !l.includes('could not be delivered')),
    };
  }

  it(`when the worker is SIGKILLed at a random moment of the sync (${KILL_TRIALS} trials), then the thread equals an undisturbed one`, async () => {
    const results: {
      afterMs: number;
      midSync: boolean;
      duplicated: number;
      missing: number;
      extra: string[];
    }[] = [];
    for (let trial = 0; trial < KILL_TRIALS; trial++) {
      const { root, firstReplyAt } = await start();
      const afterMs = Math.floor(Math.random() * spanMs);
      await new Promise((r) => setTimeout(r, Math.max(0, firstReplyAt + afterMs - Date.now())));
      const midSync = !lines(root).some((l) => /^(🎉|❌)/.test(l));
      s.worker.child.kill('SIGKILL');
      await s.worker.exited;
      await s.restartWorker();
      const diff = compare(await end(root));
      results.push({
        afterMs,
        midSync,
        duplicated: diff.duplicated.length,
        missing: diff.missing.length,
        extra: diff.extra,
      });
    }
    console.info(`thread-faults kill trials (span ${spanMs} ms): ${JSON.stringify(results)}`);

    expect(results.filter((r) => r.duplicated > 0 || r.missing > 0 || r.extra.length > 0)).toEqual([]);
  }, 600_000);

  it('when a worker is frozen (SIGSTOP) past its lock and another takes the job over, then no line appears twice after it resumes', async () => {
    const second: WavesyncProcess = await startWavesyncProcess('worker', s.env);
    const workers = [s.worker, second];
    let frozen: WavesyncProcess | undefined;
    try {
      const seen = workers.map((w) => w.logs.length);
      const { root } = await start();
      // Freeze the worker that runs the sync (the one that logged its start).
      frozen = await s.slack.waitFor(
        () => workers.find((w, i) => w.logs.slice(seen[i]).some((l) => l.msg === 'operation started')),
        30_000,
      );
      frozen.child.kill('SIGSTOP');
      await s.slack.waitFor(() => lines(root).includes(RESUMED), 90_000);
      frozen.child.kill('SIGCONT');
      const diff = compare(await end(root));
      await new Promise((r) => setTimeout(r, 5_000)); // the resumed worker's stale run reaches its next step
      const after = compare(lines(root));

      expect(diff).toEqual({ duplicated: [], missing: [], extra: [] });
      expect(after).toEqual(diff);
      expect(isFinal(s.slack.message(app.channel, root.ts)!.text)).toBe(true);
    } finally {
      frozen?.child.kill('SIGCONT');
      // Keep the worker that was not frozen as the stack's worker; stop the other.
      const keep = frozen === second ? s.worker : second;
      await (keep === second ? s.worker : second).stop();
      s.worker = keep;
    }
  }, 300_000);

  it(`when Slack answers HTTP 500 for ${OUTAGE_MS / 1000} s mid-sync, then the thread is complete once Slack recovers`, async () => {
    const { root } = await start();
    s.slack.outage(OUTAGE_MS);

    const diff = compare(await end(root, 300_000));

    expect(diff).toEqual({ duplicated: [], missing: [], extra: [] });
  }, 360_000);

  it(`when Slack answers HTTP 500 until ${OUTAGE_AFTER_MS / 1000} s after the sync ended, then the thread is complete once Slack recovers`, async () => {
    const { root } = await start();
    s.slack.outage(spanMs + OUTAGE_AFTER_MS);

    const diff = compare(await end(root, spanMs + OUTAGE_AFTER_MS + 300_000));

    expect(diff).toEqual({ duplicated: [], missing: [], extra: [] });
  }, 900_000);
});

/** The header's fallback text once the operation ended. */
function isFinal(text: string): boolean {
  return /Succeeded|Failed|Error|Terminated|Cancelled/i.test(text) && !/Running/.test(text);
}

/** A thread line with its timings ("after 3 s", "in 9.8 s", "1:02") blanked, to compare lines across runs. */
function withoutDurations(line: string): string {
  // What a wave waited for is said only when no header update showed it, which depends on the header's throttling.
  return line
    .replace(/ · waited for .*$/, '')
    .replace(/\b\d+(\.\d+)? ?(ms|s|min)\b/g, '#')
    .replace(/\b\d+:\d\d\b/g, '#');
}
