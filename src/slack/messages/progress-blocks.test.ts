import { describe, expect, it } from 'vitest';
import type { TaskRef, WaveRef } from '../../domain/index.js';
import { isAlarming } from '../../thread/index.js';
import { plainFallback, SLACK_LIMITS } from './block.js';
import { coalesceMessages } from './coalesce-messages.js';
import { hookOutcomeBlocks, logTailText } from './hook-outcome-blocks.js';
import { renderBlocksAsText } from './render-blocks-as-text.js';
import { syncSummaryBlocks } from './sync-summary-blocks.js';
import { waveCompletedBlocks } from './wave-completed-blocks.js';
import { syncFailStartedBlocks, waveStartedBlocks } from './wave-started-blocks.js';

const task = (kind: string, name: string, extra: Partial<TaskRef> = {}): TaskRef => ({
  group: '',
  kind,
  namespace: 'default',
  name,
  isHook: false,
  isPrune: false,
  ...extra,
});
const wave = (phase: WaveRef['phase'], w: number, index = 1, total = 3): WaveRef => ({
  phase,
  wave: w,
  index,
  total,
});
const at = '2026-11-29T14:00:00.000Z';
const text = (blocks: Parameters<typeof renderBlocksAsText>[0]) => renderBlocksAsText(blocks);

describe('src/slack/messages (thread replies)', () => {
  it('wave started lists resources, prunes and hooks in gitops-engine words', () => {
    const msg = waveStartedBlocks({
      type: 'WaveStarted',
      at,
      wave: wave('Sync', 0),
      tasks: [
        task('Service', 'web'),
        task('Deployment', 'web'),
        task('Service', 'legacy', { isPrune: true }),
        task('Job', 'seed', { isHook: true }),
      ],
    });

    expect(text(msg.blocks)).toBe(
      '▶ Sync · wave 0 — applying 2 resources: Service/web, Deployment/web · pruning 1 resource: Service/legacy · running hook Job/seed',
    );
    expect(msg.text).toBe(text(msg.blocks));
  });

  it('SyncFail start names its hooks', () => {
    const msg = syncFailStartedBlocks({
      type: 'SyncFailStarted',
      at,
      tasks: [task('Job', 'page-oncall', { isHook: true })],
    });

    expect(text(msg.blocks)).toBe('▶ SyncFail · running hook Job/page-oncall');
  });

  it('wave completed reports health, and failures with their message', () => {
    const ok = waveCompletedBlocks({
      type: 'WaveCompleted',
      at,
      wave: wave('Sync', 0),
      durationMs: 18_000,
      failed: false,
      message: '',
      health: [{ task: task('Deployment', 'web'), health: { status: 'Healthy' } }],
    });
    const bad = waveCompletedBlocks({
      type: 'WaveCompleted',
      at,
      wave: wave('Sync', 1),
      durationMs: 4_000,
      failed: true,
      message: 'one or more objects failed to apply',
      health: [],
    });

    const settling = waveCompletedBlocks({
      type: 'WaveCompleted',
      at,
      wave: wave('Sync', 2),
      durationMs: 100,
      failed: false,
      message: '',
      health: [
        {
          task: task('Deployment', 'web'),
          health: { status: 'Progressing', message: 'Waiting for rollout' },
        },
        { task: task('Service', 'web'), health: { status: 'Healthy' } },
      ],
    });

    expect(text(ok.blocks)).toBe('✓ Sync · wave 0 — Deployment/web Healthy after 18 s');
    expect(text(settling.blocks)).toBe(
      '✓ Sync · wave 2 — applied after 0.1 s · still settling: Deployment/web Progressing: Waiting for rollout · 1 Healthy · health is watched after the sync',
    );
    expect(text(bad.blocks)).toBe('✗ Sync · wave 1 — failed after 4 s: one or more objects failed to apply');
  });

  it('wave completed says what it waited for when asked to (the header never showed it), never on a failure', () => {
    const event = {
      type: 'WaveCompleted' as const,
      at,
      wave: wave('Sync', 0),
      durationMs: 3_000,
      failed: false,
      message: '',
      health: [{ task: task('Database', 'orders-db'), health: { status: 'Healthy' as const } }],
    };
    const reason = 'Database/orders-db: Provisioning postgres 16';

    expect(text(waveCompletedBlocks(event, [reason]).blocks)).toBe(
      `✓ Sync · wave 0 — Database/orders-db Healthy after 3 s · waited for ${reason}`,
    );
    expect(text(waveCompletedBlocks({ ...event, failed: true, message: 'boom' }, [reason]).blocks)).toBe(
      '✓ Sync · wave 0 — failed after 3 s: boom'.replace('✓', '✗'),
    );
  });

  it('hook succeeded is one line; hook failed carries the log tail in a code block', () => {
    const base = {
      type: 'HookFinished' as const,
      at,
      wave: wave('PreSync', 0),
      task: task('Job', 'db-migrate', { isHook: true }),
      hookType: 'PreSync' as const,
    };
    const ok = hookOutcomeBlocks({
      ...base,
      hookPhase: 'Succeeded',
      message: '',
      durationMs: 31_000,
      logTail: ['done'],
    });
    const failed = hookOutcomeBlocks({
      ...base,
      hookPhase: 'Failed',
      message: 'Job has reached the specified backoff limit',
      durationMs: 12_000,
      logTail: [
        '== AddIndexToOrders: migrating ==',
        'rake aborted! PG::UndefinedTable: relation "orders" does not exist',
      ],
    });

    expect(text(ok.blocks)).toBe('✓ PreSync hook Job/db-migrate succeeded in 31 s');
    expect(failed.blocks[1]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: '```\n== AddIndexToOrders: migrating ==\nrake aborted! PG::UndefinedTable: relation "orders" does not exist\n```',
      },
    });
    expect(text(failed.blocks)).toBe(
      '✗ PreSync hook Job/db-migrate failed after 12 s: Job has reached the specified backoff limit\n' +
        '│ == AddIndexToOrders: migrating ==\n│ rake aborted! PG::UndefinedTable: relation "orders" does not exist',
    );
  });

  it('a long log tail keeps the newest lines under 3,000 characters with a note', () => {
    const lines = Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(40)}`);

    const out = logTailText(lines);

    expect(out.length).toBeLessThanOrEqual(SLACK_LIMITS.maxSectionText);
    expect(out).toMatch(/^_last \d+ of 400 log lines_\n```\n/);
    expect(out).toContain('line 399 ');
    expect(out).not.toContain('line 0 ');
  });

  it('summary: outcome and health after the sync, with counts', () => {
    const resources = [
      {
        group: '',
        version: 'v1',
        kind: 'Service',
        namespace: 'd',
        name: 'web',
        syncPhase: 'Sync' as const,
        wave: 0,
        status: 'Synced' as const,
        message: '',
      },
      {
        group: '',
        version: 'v1',
        kind: 'Service',
        namespace: 'd',
        name: 'old',
        syncPhase: 'Sync' as const,
        wave: 0,
        status: 'Pruned' as const,
        message: '',
      },
      {
        group: 'batch',
        version: 'v1',
        kind: 'Job',
        namespace: 'd',
        name: 'm',
        syncPhase: 'PreSync' as const,
        wave: 0,
        status: 'Synced' as const,
        message: '',
        hookType: 'PreSync' as const,
      },
    ];
    const state = {
      operation: { prune: true, dryRun: false, syncOptions: [] },
      phase: 'Succeeded' as const,
      message: '',
      startedAt: at,
      syncResult: { revision: 'abc', resources },
    };
    const healthy = syncSummaryBlocks({
      phase: 'Succeeded',
      message: '',
      durationMs: 67_000,
      state,
      health: { health: { status: 'Healthy' }, afterMs: 42_000, unhealthy: [] },
    });
    const degraded = {
      phase: 'Succeeded' as const,
      message: '',
      durationMs: 5_000,
      health: {
        health: { status: 'Degraded' as const },
        afterMs: 0,
        unhealthy: [
          {
            task: task('Deployment', 'web'),
            health: { status: 'Degraded' as const, message: 'ImagePullBackOff' },
          },
        ],
      },
    };

    expect(text(healthy.blocks)).toBe(
      '🎉 Succeeded in 1:07 · Healthy after 42 s · 1 resource synced, 1 pruned, 1 hook run',
    );
    expect(text(syncSummaryBlocks(degraded).blocks)).toBe(
      '⚠️ Succeeded in 5 s · Degraded: Deployment web ImagePullBackOff',
    );
    expect(
      text(
        syncSummaryBlocks({
          phase: 'Failed',
          message: 'PreSync hook Job/db-migrate failed',
          durationMs: 19_000,
        }).blocks,
      ),
    ).toBe('❌ Failed in 19 s · PreSync hook Job/db-migrate failed');
    expect([
      isAlarming(degraded),
      isAlarming({ phase: 'Succeeded' }),
      isAlarming({ phase: 'Error' }),
    ]).toEqual([true, false, true]);
  });

  it('coalescing merges one-line replies into one section, keeps code blocks separate, and never exceeds 50 blocks', () => {
    const lines = Array.from({ length: 80 }, (_, i) =>
      waveStartedBlocks({
        type: 'WaveStarted',
        at,
        wave: wave('Sync', i),
        tasks: [task('ConfigMap', `cm-${i}`)],
      }),
    );
    const failedHook = hookOutcomeBlocks({
      type: 'HookFinished',
      at,
      wave: wave('Sync', 80),
      task: task('Job', 'j', { isHook: true }),
      hookType: 'Sync',
      hookPhase: 'Failed',
      message: 'x',
      durationMs: 1,
      logTail: ['boom'],
    });

    const out = coalesceMessages([...lines, failedHook]);

    expect(out).toHaveLength(1);
    expect(out[0]!.blocks.length).toBeLessThanOrEqual(50);
    expect(out[0]!.blocks.every((b) => b.type !== 'section' || b.text.text.length <= 3000)).toBe(true);
    const rendered = text(out[0]!.blocks);
    for (let i = 0; i < 80; i++) expect(rendered).toContain(`ConfigMap/cm-${i}`);
    expect(rendered.endsWith('✗ Sync hook Job/j failed after 0 s: x\n│ boom')).toBe(true);
  });

  it('coalescing splits into several messages beyond 50 blocks, losing nothing', () => {
    const many = Array.from({ length: 60 }, (_, i) => ({
      text: `m${i}`,
      blocks: [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text: `\`\`\`${i}\`\`\`` } }],
    }));

    const out = coalesceMessages(many);

    expect(out.map((m) => m.blocks.length)).toEqual([50, 10]);
    expect(out[1]!.text).toContain('59');
  });
});

describe('src/slack/messages/coalesce-messages (empty)', () => {
  it('returns no messages for no input', () => {
    expect(coalesceMessages([])).toEqual([]);
  });
});

describe('src/slack/messages/block plainFallback', () => {
  it('strips emphasis markers but keeps underscores and asterisks inside words', () => {
    expect(plainFallback('*guestbook* failed (not_in_channel): _see_ `x_y` a*b <@U1> <https://x|link>')).toBe(
      'guestbook failed (not_in_channel): see x_y a*b @U1 link',
    );
  });
});
