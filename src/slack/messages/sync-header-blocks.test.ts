import { describe, expect, it } from 'vitest';
import { renderBlocksAsText } from './render-blocks-as-text.js';
import { CANCEL_ACTION_ID, type SyncHeaderView, syncHeaderBlocks } from './sync-header-blocks.js';

const base: Omit<SyncHeaderView, 'state'> = {
  application: 'guestbook',
  destination: 'staging',
  revision: '3f9c2e1aa0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5',
  initiator: { userId: 'U0PAT', userName: 'pat' },
  commandText: '/sync guestbook --prune',
  jobId: 'job-1',
};

describe('src/slack/messages/sync-header-blocks', () => {
  it('running: phase, wave N of M, elapsed, and a Cancel button carrying the job id', () => {
    const msg = syncHeaderBlocks({
      ...base,
      state: { kind: 'running', elapsedMs: 42_000, wave: { phase: 'PreSync', wave: 2, index: 2, total: 4 } },
    });

    expect(msg.blocks).toEqual([
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: '🔄 *guestbook* → staging  ·  Running  ·  PreSync wave 2 · step 2 of 4  ·  0:42',
        },
      },
      {
        type: 'context',
        elements: [
          { type: 'mrkdwn', text: 'revision `3f9c2e1` · requested by <@U0PAT> · `/sync guestbook --prune`' },
        ],
      },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: CANCEL_ACTION_ID,
            text: { type: 'plain_text', text: 'Cancel', emoji: true },
            value: 'job-1',
            style: 'danger',
          },
        ],
      },
    ]);
    expect(msg.text).toBe('🔄 guestbook → staging  ·  Running  ·  PreSync wave 2 · step 2 of 4  ·  0:42');
  });

  it('queued: position and who is ahead', () => {
    const msg = syncHeaderBlocks({
      ...base,
      state: {
        kind: 'queued',
        position: 1,
        ahead: [
          {
            jobId: 'j0',
            initiator: { userId: 'U0LEE', userName: 'lee' },
            state: 'active',
            wave: { phase: 'Sync', wave: 1, index: 2, total: 3 },
          },
        ],
      },
    });

    expect(renderBlocksAsText(msg.blocks, { users: { U0LEE: 'lee', U0PAT: 'pat' } })).toBe(
      "⏳ guestbook → staging  ·  queued · 2nd in line behind @lee's sync (running, Sync wave 1 · step 2 of 3)\n" +
        'revision 3f9c2e1 · requested by @pat · /sync guestbook --prune\n[Cancel]',
    );
  });

  it('succeeded with health: no buttons, health and duration', () => {
    const msg = syncHeaderBlocks({
      ...base,
      state: {
        kind: 'completed',
        phase: 'Succeeded',
        durationMs: 67_000,
        message: 'successfully synced',
        health: { status: 'Healthy' },
      },
    });

    expect(msg.text).toBe('✅ guestbook → staging  ·  Succeeded  ·  Healthy  ·  1:07');
    expect(msg.blocks.map((b) => b.type)).toEqual(['section', 'context']);
  });

  it('failed: the message; degraded success is marked with a warning', () => {
    const failed = syncHeaderBlocks({
      ...base,
      state: {
        kind: 'completed',
        phase: 'Failed',
        durationMs: 19_000,
        message: 'PreSync hook Job/db-migrate failed',
      },
    });
    const degraded = syncHeaderBlocks({
      ...base,
      state: {
        kind: 'completed',
        phase: 'Succeeded',
        durationMs: 19_000,
        message: '',
        health: { status: 'Degraded', message: 'ImagePullBackOff' },
      },
    });

    expect(failed.text).toBe(
      '❌ guestbook → staging  ·  Failed  ·  PreSync hook Job/db-migrate failed  ·  0:19',
    );
    expect(degraded.text).toBe('⚠️ guestbook → staging  ·  Succeeded  ·  Degraded: ImagePullBackOff  ·  0:19');
  });

  it('escapes user-controlled text', () => {
    const msg = syncHeaderBlocks({
      ...base,
      commandText: '/sync <!channel>',
      state: { kind: 'not_queued', reason: 'queue <down>' },
    });

    expect(JSON.stringify(msg.blocks)).not.toContain('<!channel>');
    expect(msg.text).toContain('Not queued: queue &lt;down&gt;');
  });
});
