import { describe, expect, it } from 'vitest';
import type { ResourceDifference } from '../../drift/index.js';
import { SLACK_LIMITS } from './block.js';
import { DRIFT_SYNC_ACTION_ID, driftNoticeBlocks, selfHealBlocks } from './drift-notice-blocks.js';
import { renderBlocksAsText } from './render-blocks-as-text.js';

const many: ResourceDifference[] = Array.from({ length: 40 }, (_, i) => ({
  key: { group: '', kind: 'ConfigMap', namespace: 'shop', name: `${'very-long-name-'.repeat(20)}${i}` },
  reason: 'changed',
  path: `data.${'k'.repeat(300)}`,
}));

describe('driftNoticeBlocks', () => {
  it('lists the first differences within Slack limits, with a Sync button, and renders as text', () => {
    const message = driftNoticeBlocks({
      application: 'shop',
      destination: 'staging',
      differences: many,
      state: { kind: 'out_of_sync', why: 'selfHeal not allowed: production requires approval' },
    });

    const text = renderBlocksAsText(message.blocks);
    expect(message.text).toBe('⚠️ shop → staging  ·  OutOfSync: 40 resources differ');
    expect(text).toContain('selfHeal not allowed: production requires approval');
    expect(text).toContain('[Sync]');
    const listed = text.split('\n').filter((l) => l.startsWith('• ')).length;
    expect(listed).toBeGreaterThan(3);
    expect(listed).toBeLessThanOrEqual(10);
    expect(text).toContain(`…and ${40 - listed} more`);
    for (const block of message.blocks) {
      if (block.type === 'section')
        expect(block.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.maxSectionText);
    }
    expect(message.blocks.at(-1)).toEqual({
      type: 'actions',
      elements: [expect.objectContaining({ action_id: DRIFT_SYNC_ACTION_ID, value: 'shop' })],
    });
  });

  it('turns into "back in sync" without a button', () => {
    const message = driftNoticeBlocks({
      application: 'shop',
      destination: 'staging',
      differences: many.slice(0, 1),
      state: { kind: 'resolved' },
    });

    expect(renderBlocksAsText(message.blocks)).toBe(
      '✅ shop → staging  ·  back in sync\nwas OutOfSync: 1 resource differs · syncPolicy.automated',
    );
  });

  it('says why a self-heal sync started and whether it prunes', () => {
    const missing: ResourceDifference = {
      key: { group: '', kind: 'Service', namespace: '', name: 'web' },
      reason: 'missing',
    };

    expect(renderBlocksAsText(selfHealBlocks([missing], false).blocks)).toBe(
      '🔧 Self-heal: OutOfSync: 1 resource differs, syncing automatically (syncPolicy.automated.selfHeal, prune: false, extra resources are kept)\n• Service/web: missing',
    );
  });
});
