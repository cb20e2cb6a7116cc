import { describe, expect, it } from 'vitest';
import type { JobStatus } from '../ports.js';
import { appsListBlocks } from './apps-list-blocks.js';
import { commandErrorBlocks, notQueuedBlocks } from './command-error-blocks.js';
import { helpBlocks, USAGE } from './help-blocks.js';
import { historyBlocks } from './history-blocks.js';
import { mrkdwnToText, renderBlocksAsText } from './render-blocks-as-text.js';
import { statusBlocks } from './status-blocks.js';

const pat = { userId: 'U0PAT', userName: 'pat' };
const op = { prune: false, dryRun: false, syncOptions: [] };
const render = (m: { blocks: Parameters<typeof renderBlocksAsText>[0] }) =>
  renderBlocksAsText(m.blocks, { users: { U0PAT: 'pat' } });

describe('src/slack/messages (command replies)', () => {
  it('error: problem, suggestion and the right form', () => {
    const msg = commandErrorBlocks({
      problem: 'No application named "gustbook".',
      suggestion: 'guestbook',
      usage: USAGE.sync,
    });

    expect(render(msg)).toBe(
      'No application named "gustbook". Did you mean guestbook?\nUsage: /sync <app> [--revision REV] [--prune] [--dry-run] [--resource GROUP:KIND:NAME] [--break-glass "reason"]',
    );
    expect(msg.text).toContain('Did you mean guestbook?');
  });

  it('not queued says nothing will run', () => {
    expect(render(notQueuedBlocks('guestbook', 'the queue is unreachable'))).toBe(
      '❌ guestbook was not queued: the queue is unreachable. Nothing will run; try again in a minute.',
    );
  });

  it('help lists every subcommand', () => {
    const out = render(helpBlocks());

    for (const usage of Object.values(USAGE).filter((u) => u !== USAGE.help)) expect(out).toContain(usage);
  });

  it('apps: sorted, with environment, destination and source; empty catalog explained', () => {
    const msg = appsListBlocks([
      {
        name: 'payments',
        environment: 'production',
        destination: 'in-cluster/payments',
        source: 'git@x:pay.git',
      },
      {
        name: 'guestbook',
        destination: 'in-cluster/guestbook',
        source: 'https://github.com/argoproj/argocd-example-apps#guestbook',
      },
      {
        name: 'web-dev',
        destination: 'dev/web',
        source: 'https://git.example.com/apps#web',
        applicationSet: 'web',
      },
    ]);

    expect(render(msg)).toBe(
      '3 Applications you can /sync:\n' +
        '• guestbook → in-cluster/guestbook · from https://github.com/argoproj/argocd-example-apps#guestbook\n' +
        '• payments (production) → in-cluster/payments · from git@x:pay.git\n' +
        '• web-dev → dev/web · from https://git.example.com/apps#web · ApplicationSet web',
    );
    expect(render(appsListBlocks([]))).toContain('No Applications are configured');
  });

  it('apps: hundreds of apps stay within 50 blocks', () => {
    const apps = Array.from({ length: 5000 }, (_, i) => ({
      name: `app-${i}`,
      destination: 'in-cluster/x',
      source: 'https://example.com/repo.git',
    }));

    const msg = appsListBlocks(apps);

    expect(msg.blocks.length).toBeLessThanOrEqual(50);
    expect(render(msg)).toMatch(/… and \d+ more$/);
  });

  it('status: running with wave and elapsed, waiting with position; nothing running', () => {
    const jobs: JobStatus[] = [
      {
        jobId: 'j1',
        application: 'guestbook',
        state: 'active',
        initiator: pat,
        target: undefined,
        operation: op,
        enqueuedAt: '2026-11-29T14:00:00Z',
        currentWave: { phase: 'Sync', wave: 0, index: 2, total: 3 },
        operationState: {
          operation: op,
          phase: 'Running',
          message: '',
          startedAt: '2026-11-29T14:00:00Z',
          syncResult: { revision: 'a', resources: [] },
        },
      },
      {
        jobId: 'j2',
        application: 'guestbook',
        state: 'waiting',
        position: 1,
        initiator: pat,
        target: undefined,
        operation: { ...op, revision: 'v2' },
        enqueuedAt: '2026-11-29T14:00:01Z',
      },
    ];

    expect(render(statusBlocks(jobs, 'guestbook', Date.parse('2026-11-29T14:00:42Z')))).toBe(
      '🔄 guestbook · Running · Sync wave 0 · step 2 of 3 · 0:42 · requested by @pat · job j1\n' +
        '⏳ guestbook · queued · 2nd in line · requested by @pat · revision v2 · job j2',
    );
    expect(render(statusBlocks([], undefined, 0))).toBe(
      'Nothing is running, queued or waiting for approval for any Application.',
    );
  });

  it('history: outcome, health, duration, revision, who, and the failure message', () => {
    const msg = historyBlocks('guestbook', [
      {
        jobId: 'j2',
        application: 'guestbook',
        initiator: pat,
        revision: '3f9c2e1aa0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5',
        phase: 'Failed',
        message: 'hook failed',
        startedAt: '2026-11-29T14:02:00Z',
        finishedAt: '2026-11-29T14:03:00Z',
        durationMs: 60_000,
      },
      {
        jobId: 'j1',
        application: 'guestbook',
        initiator: pat,
        revision: 'main',
        phase: 'Succeeded',
        message: '',
        startedAt: '2026-11-29T13:00:00Z',
        finishedAt: '2026-11-29T13:01:07Z',
        durationMs: 67_000,
        health: { status: 'Healthy' },
      },
    ]);

    expect(render(msg)).toBe(
      'Last 2 syncs of guestbook:\n' +
        '❌ 2026-11-29 14:03 UTC · Failed · 1:00 · 3f9c2e1 · by @pat · hook failed\n' +
        '✅ 2026-11-29 13:01 UTC · Succeeded · Healthy · 1:07 · main · by @pat',
    );
    expect(render(historyBlocks('guestbook', []))).toBe('guestbook has not been synced by wavesync yet.');
  });
});

describe('src/slack/messages/render-blocks-as-text', () => {
  it('renders links, channels, entities and ANSI bold', () => {
    expect(mrkdwnToText('<https://x.test/a|the thread> in <#C1|deploys> &lt;ok&gt; <https://y.test>')).toBe(
      'the thread in #deploys <ok> https://y.test',
    );
    expect(mrkdwnToText('*bold*', { ansi: true })).toBe('\u001b[1mbold\u001b[22m');
  });

  it('indents every line and renders dividers and headers', () => {
    const out = renderBlocksAsText(
      [{ type: 'header', text: { type: 'plain_text', text: 'Title' } }, { type: 'divider' }],
      { indent: '  ' },
    );

    expect(out).toBe(`  Title\n  ${'─'.repeat(40)}`);
  });

  it('history: each entry shows its history id, and a rollback says which entry it returned to', () => {
    const base = {
      application: 'guestbook',
      initiator: pat,
      message: '',
      startedAt: '2026-11-29T13:00:00Z',
      finishedAt: '2026-11-29T13:01:07Z',
      durationMs: 67_000,
    };
    const msg = historyBlocks('guestbook', [
      {
        ...base,
        id: 42,
        jobId: 'j2',
        revision: '3f2a1c9aa0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5',
        phase: 'Succeeded',
        rollback: { id: 41, revision: '3f2a1c9aa0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5' },
      },
      { ...base, id: 41, jobId: 'j1', revision: 'main', phase: 'Succeeded', dryRun: true },
    ]);

    expect(render(msg)).toBe(
      'Last 2 syncs of guestbook:\n' +
        '✅ #42 2026-11-29 13:01 UTC · ↩️ rollback to #41 · Succeeded · 1:07 · 3f2a1c9 · by @pat\n' +
        '✅ #41 2026-11-29 13:01 UTC · dry run · Succeeded · 1:07 · main · by @pat',
    );
  });
});
