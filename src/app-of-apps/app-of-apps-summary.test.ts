import { describe, expect, it } from 'vitest';
import { appOfAppsSummaryBlocks, childLineBlocks } from '../slack/messages/app-of-apps-blocks.js';
import { gateOnChildHealthOf, summarizeChildSyncs } from './app-of-apps.js';

describe('App of Apps gating override and summary', () => {
  it('the parent annotation overrides the default; other values leave it', () => {
    const a = (v?: string): { annotations: Record<string, string> } => ({
      annotations: v === undefined ? {} : { 'wavesync.io/gate-on-child-health': v },
    });
    expect(gateOnChildHealthOf(a('false'), true)).toBe(false);
    expect(gateOnChildHealthOf(a(' TRUE '), false)).toBe(true);
    expect(gateOnChildHealthOf(a('maybe'), true)).toBe(true);
    expect(gateOnChildHealthOf(a(), false)).toBe(false);
  });

  it('names the children that failed and those never synced, in order', () => {
    const summary = summarizeChildSyncs({
      parent: 'stack',
      names: ['a', 'b', 'c', 'd'],
      outcomes: new Map([
        ['a', { phase: 'Succeeded', health: 'Healthy', message: '' }],
        ['b', { phase: 'Succeeded', health: 'Degraded', message: '', healthMessage: 'ImagePullBackOff' }],
      ]),
      gateOnHealth: true,
    });

    expect(summary).toMatchObject({ healthy: ['a'], notSynced: ['c', 'd'], total: 4 });
    expect(appOfAppsSummaryBlocks(summary).text).toBe(
      '❌ App of Apps: 1/4 children synced and Healthy · b Degraded: ImagePullBackOff · not synced: c, d',
    );
  });

  it('all Healthy gives the short line; child lines show the wave while running and the outcome at the end', () => {
    const all = summarizeChildSyncs({
      parent: 'apps',
      names: ['a'],
      outcomes: new Map([['a', { phase: 'Succeeded', health: 'Healthy', message: '' }]]),
      gateOnHealth: false,
    });
    expect(appOfAppsSummaryBlocks(all).text).toBe('✅ App of Apps: 1/1 children synced and Healthy');
    const wave = { phase: 'Sync' as const, wave: 1, index: 2, total: 3 };
    expect(childLineBlocks({ kind: 'running', application: 'a', wave }).text).toBe('↳ a · Sync wave 1…');
    expect(
      childLineBlocks({
        kind: 'completed',
        application: 'a',
        phase: 'Failed',
        message: 'x <y>',
        durationMs: 1200,
      }).blocks[0],
    ).toMatchObject({ text: { text: '↳ ❌ *a* Failed: x &lt;y&gt; · 1.2 s' } });
  });
});
