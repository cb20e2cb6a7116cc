/**
 * The main job end to end with the real processes: `wavesync bot` and `wavesync worker` as separate child
 * processes (node bin/wavesync.js), configured by environment only, on the real Redis (a unique key prefix), the
 * fake Slack Web API over HTTP and the Kubernetes API simulator over HTTP. A signed `/sync <app>` goes through the
 * bot's HTTP endpoint for every example Application; the recorded Slack calls must tell the story in order and
 * the simulator must hold the manifests. Then a worker is SIGKILLed mid-sync and a new one resumes it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { approveAs } from '../../src/demo/approve-as.js';
import { checkOutcomes, threadText } from '../../src/demo/check-outcomes.js';
import { DEMO_APPS, DEMO_USERS, type DemoApp } from '../../src/demo/demo-scenario.js';
import { hasKustomizeRenderer } from '../../src/demo/has-kustomize-renderer.js';
import { type E2eStack, startE2eStack } from './support/e2e-stack.js';
import { RAILS_HOOK_DELETES_ONCE, railsHookDeletes, threadRoots } from './support/thread-checks.js';

describe('test/e2e/sync-processes', () => {
  let stack: E2eStack | undefined;
  afterEach(async () => {
    await stack?.close();
    stack = undefined;
  });

  it('when /sync is sent for each example app, then each thread tells its story in order and the cluster matches the manifests', async () => {
    stack = await startE2eStack({ speed: 20 });
    const kustomize = await hasKustomizeRenderer();
    const apps = DEMO_APPS.filter((a) => kustomize || !a.needsKustomize);
    const acks = new Map<string, number>();

    for (const app of apps) acks.set(app.application, await stack.sync(app));
    for (const app of apps.filter((a) => a.needsApproval)) {
      const click = await approveAs(stack.slack, stack.client, {
        channel: app.channel,
        user: DEMO_USERS.approver,
        timeoutMs: 20_000,
      });
      expect(click.status).toBe(200);
    }
    const outcomes = await checkOutcomes({ apps, env: stack, acks, timeoutMs: 90_000 });

    expect(outcomes.map((o) => [o.application, o.phase, o.problems])).toEqual(
      apps.map((a) => [a.application, a.expected, []]),
    );
    for (const ack of acks.values()) expect(ack).toBeLessThan(3000);
  }, 300_000);

  it('when the worker is SIGKILLed mid-sync and restarted, then the same thread completes and every hook is created once', async () => {
    stack = await startE2eStack({ speed: 1 });
    const s = stack;
    const app: DemoApp = DEMO_APPS.find((a) => a.application === 'rails')!;

    await s.sync(app);
    const root = await s.slack.waitFor(
      () => s.slack.channelMessages(app.channel).find((m) => !m.threadTs),
      20_000,
    );
    // Kill while the migration hook runs: its wave start is in the thread, the summary is not.
    const replies = () => threadText(s.slack, app.channel, root.ts);
    await s.slack.waitFor(() => replies().includes('PreSync · wave 2'), 60_000);
    const finishedBeforeKill = replies().includes('Succeeded');
    s.worker.child.kill('SIGKILL');
    await s.worker.exited;
    await s.restartWorker();
    const [outcome] = await checkOutcomes({ apps: [app], env: s, acks: new Map(), timeoutMs: 90_000 });

    expect(finishedBeforeKill).toBe(false);
    expect(outcome?.problems).toEqual([]);
    expect(outcome?.phase).toBe('Succeeded');
    expect(threadRoots(s, app.channel)).toEqual([root.ts]);
    expect(railsHookDeletes(s)).toEqual(RAILS_HOOK_DELETES_ONCE);
    // Each thread line once: the resumed worker's engine re-announces the wave it was in (and the lines posted
    // before the kill); none may appear twice, durations aside.
    const lines = replies().split('\n').map(withoutDurations);
    expect(lines.filter((l, i) => lines.indexOf(l) !== i)).toEqual([]);
    expect(lines.filter((l) => l.startsWith('↻ Resumed'))).toHaveLength(1);
    expect(s.sim.requests.some((r) => isApply(r) && r.path.includes('/jobs/smoke-test'))).toBe(true);
  }, 300_000);
});

/** A server-side apply that persisted something (not a dry run). */
function isApply(r: { method: string; path: string; code: number }): boolean {
  return r.method === 'PATCH' && !r.path.includes('dryRun') && r.code < 300;
}

/** A thread line with its timings ("after 3 s", "in 9.8 s", "1:02") blanked, to compare lines across workers. */
function withoutDurations(line: string): string {
  // What a wave waited for is said only when no header update showed it, which depends on the header's throttling.
  return line
    .replace(/ · waited for .*$/, '')
    .replace(/\b\d+(\.\d+)? ?(ms|s|min)\b/g, '#')
    .replace(/\b\d+:\d\d\b/g, '#');
}
