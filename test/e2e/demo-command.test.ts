/**
 * `wavesync demo` as a newcomer runs it: `node bin/wavesync.js demo` as a child process, on the Redis at
 * REDIS_URL. It must exit 0 (every expected outcome happened), print every example app's thread and the outcome
 * table, and finish well under a minute.
 */
import { describe, expect, it } from 'vitest';
import { runDemoProcess } from './support/demo-process.js';

const runDemo = (...args: string[]) => runDemoProcess(args);

describe('test/e2e/demo-command', () => {
  it('when a newcomer runs wavesync demo, then every app ends as expected and it exits 0 in under a minute of demo time', async () => {
    const { code, out, ms } = await runDemo();

    expect(out).toMatch(/demo passed: (\d+) of \1 as expected/);
    for (const app of ['guestbook', 'sync-waves', 'orders', 'rails', 'payments', 'broken-migration']) {
      expect(out).toContain(`[${app}]`);
    }
    expect(out).toContain('@sam clicks Approve on payments');
    expect(out).toContain('[#alerts]');
    // One thread's events in its order: the approval request is printed before the click on it.
    const lines = out.split('\n');
    const needsApproval = lines.findIndex((l) => /^\[payments\].*needs approval/.test(l));
    expect(needsApproval).toBeGreaterThan(-1);
    expect(needsApproval).toBeLessThan(
      lines.findIndex((l) => l.startsWith('@sam clicks Approve on payments')),
    );
    // A custom resource judged by the Lua script in examples/wavesync.yaml holds its wave: the thread says the
    // script's Progressing message (in the header while it waits, or in the wave's completed line) before wave 1
    // starts; check-outcomes also checks the order against the cluster.
    const waiting = out.search(
      /Database\/orders-db:\s+(Provisioning\s+postgres\s+16|Waiting\s+for\s+the\s+database\s+controller)/,
    );
    expect(waiting).toBeGreaterThan(-1);
    expect(waiting).toBeLessThan(out.search(/▶ Sync · wave 1 — applying 2 resources:\s+Service\/orders-web/));
    expect(out).toMatch(/\n {2}✓ {2}orders +Succeeded +4 +0 +[\d.]+ s /);
    // Fits a 100-column terminal.
    expect(lines.filter((l) => l.length > 100)).toEqual([]);
    // The table per app at the end.
    expect(out).toMatch(/\n {2}\s+APP\s+OUTCOME\s+WAVES\s+HOOKS\s+DURATION\s+SLACK CALLS\s+ACK\n/);
    expect(out).toMatch(/\n {2}✓ {2}payments +Succeeded +5 +3 +[\d.]+ s +\d+ +\d+ ms\n/);
    expect(out).toMatch(/\n {2}✓ {2}broken-migration +Failed +\d+ +\d+ /);
    // Look and act: a Degraded app, its resources, its crash's logs (redacted) and a restart, from Slack.
    expect(out).toMatch(/\n {2}✓ {2}checkout \(look & act\) +Succeeded /);
    expect(out).toContain('@pat in #checkout: /sync resources checkout');
    expect(out).toContain('connecting to postgres://checkout:***@db:5432');
    expect(out).not.toContain('demo-db-pa55word');
    expect(out).toContain('@pat clicks restart on Deployment/checkout');
    expect(code).toBe(0);
    // The demo's own clock (from its start to the outcomes); process start-up (tsx compiling the sources) is
    // measured separately and depends on the machine.
    const seconds = Number(/as expected in ([\d.]+) s/.exec(out)?.[1]);
    expect(seconds).toBeLessThan(60);
    expect(ms).toBeLessThan(180_000);
  }, 300_000);

  it('when run with --socket-mode, then the command and the Approve click go over the Socket Mode WebSocket and the scenario passes', async () => {
    const { code, out } = await runDemo('--socket-mode', '--app', 'payments');

    expect(out).toContain('Socket Mode: a WebSocket from apps.connections.open');
    expect(out).toContain('@sam clicks Approve on payments');
    expect(out).toMatch(/demo passed: 1 of 1 as expected/);
    expect(code).toBe(0);
  }, 300_000);

  it('when asked for one scenario with --app, then only that app runs; an unknown name exits 2 naming the closest', async () => {
    const [one, unknown] = await Promise.all([runDemo('--app', 'guestbook'), runDemo('--app', 'gestbook')]);

    expect(one.out).toMatch(/demo passed: 1 of 1 as expected/);
    expect(one.out).toContain('[guestbook]');
    expect(one.out).not.toContain('[payments]');
    expect(one.code).toBe(0);
    expect(unknown.out).toBe(
      'error: no demo scenario named "gestbook" (did you mean guestbook?): use one of guestbook, sync-waves, ' +
        'pre-post-sync, orders, rails, payments, app-of-apps, broken-migration, checkout\n',
    );
    expect(unknown.code).toBe(2);
  }, 300_000);
});
