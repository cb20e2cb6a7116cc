import { describe, expect, it } from 'vitest';
import { planDeletion } from '../../deletion/index.js';
import type { KubeObject, TaskRef } from '../../domain/index.js';
import { deleteCommandTextOf } from '../commands/header-view.js';
import {
  DELETE_CONFIRM_ACTION_ID,
  deletionConfirmationBlocks,
  deletionPlanLines,
  deletionPlanView,
  deletionSummaryBlocks,
  resourcesDeletedBlocks,
  resourcesKeptBlocks,
} from './deletion-blocks.js';
import { renderBlocksAsText } from './render-blocks-as-text.js';
import { syncHeaderBlocks } from './sync-header-blocks.js';

const at = '2026-11-29T14:00:00.000Z';
const task = (kind: string, name: string): TaskRef => ({
  group: '',
  kind,
  namespace: 'shop',
  name,
  isHook: false,
  isPrune: true,
});
const cm = (name: string, annotations: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'shop', annotations },
});

describe('src/slack/messages/deletion-blocks (rendered as the demo prints them)', () => {
  it('the confirmation shows waves, what is kept and why, Delete=confirm objects, and Delete/Cancel', () => {
    const plan = planDeletion(
      { name: 'shop', namespace: 'argocd', finalizers: ['resources-finalizer.argocd.argoproj.io'] },
      [
        cm('late', { 'argocd.argoproj.io/sync-wave': '3' }),
        cm('cfg'),
        cm('pinned', { 'argocd.argoproj.io/sync-options': 'Delete=false' }),
        cm('careful', { 'argocd.argoproj.io/sync-options': 'Delete=confirm' }),
      ],
    );

    const message = deletionConfirmationBlocks(plan, 'v');

    expect(renderBlocksAsText(message.blocks).split('\n')).toEqual([
      '🗑 Delete shop? This cannot be undone.',
      'Cascade: foreground (Foreground propagation), highest sync wave first, then the Application.',
      '🗑 wave 3 · 1 resource: ConfigMap/late',
      '🗑 wave 0 · 2 resources: ConfigMap/cfg, ConfigMap/careful',
      '📌 kept · ConfigMap/pinned — argocd.argoproj.io/sync-options: Delete=false',
      '⚠️ Delete=confirm: ConfigMap/careful — confirming this deletes them too.',
      'The Application stays in the wavesync.yaml registry (it comes from git). Approval rules of its environment apply.',
      '[Delete]  [Cancel]',
    ]);
    expect(JSON.stringify(message.blocks)).toContain(DELETE_CONFIRM_ACTION_ID);
  });

  it('thread replies: one per deleted wave, what was kept, the final line, and the header', () => {
    const deleted = resourcesDeletedBlocks({
      type: 'ResourcesDeleted',
      at,
      syncWave: 2,
      propagationPolicy: 'Background',
      resources: [task('Service', 'web'), task('ConfigMap', 'a'), task('ConfigMap', 'b')],
    });
    const kept = resourcesKeptBlocks({
      type: 'ResourcesKept',
      at,
      kept: [
        { task: task('ConfigMap', 'pinned'), reason: 'Delete=false' },
        { task: task('Secret', 'db'), reason: 'helm.sh/resource-policy: keep' },
      ],
    });
    const done = deletionSummaryBlocks({
      application: 'shop',
      phase: 'Succeeded',
      message: 'ok',
      durationMs: 4200,
    });
    const failed = deletionSummaryBlocks({
      application: 'shop',
      phase: 'Failed',
      message: 'Timed out',
      durationMs: 61_000,
    });
    const header = syncHeaderBlocks({
      application: 'shop',
      destination: 'production',
      initiator: { userId: 'U1', userName: 'pat' },
      commandText: deleteCommandTextOf('shop', { cascade: 'background' }),
      deletion: true,
      state: { kind: 'running', elapsedMs: 3000 },
    });

    expect(renderBlocksAsText(deleted.blocks)).toBe(
      '🗑 wave 2 · 3 resources deleted: Service/web, ConfigMap/a, ConfigMap/b (Background)',
    );
    expect(renderBlocksAsText(kept.blocks).split('\n')).toEqual([
      '📌 kept · ConfigMap/pinned — argocd.argoproj.io/sync-options: Delete=false',
      '📌 kept · Secret/db — helm.sh/resource-policy: keep',
    ]);
    expect(renderBlocksAsText(done.blocks)).toBe('🗑 Deleted shop in 4.2 s · ok');
    expect(renderBlocksAsText(failed.blocks)).toMatch(/^❌ Deleting shop Failed after 1:01 · Timed out$/);
    expect(renderBlocksAsText(header.blocks)).toContain('🗑 Deleting shop → production');
    expect(renderBlocksAsText(header.blocks)).toContain('/sync delete shop --cascade=background');
  });

  it('the plan names the PreDelete and PostDelete hooks around the waves (only when cascading)', () => {
    const job = (name: string): KubeObject => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name } });
    const app = { name: 'shop', namespace: 'argocd', finalizers: ['resources-finalizer.argocd.argoproj.io'] };
    const hooks = { preDelete: [job('backup')], postDelete: [job('notify')] };

    const lines = deletionPlanLines(planDeletion(app, [cm('cfg')], undefined, hooks));
    const orphan = deletionPlanLines(planDeletion(app, [cm('cfg')], 'orphan', hooks));

    expect(lines).toEqual([
      'Cascade: *foreground* (Foreground propagation), highest sync wave first, then the Application.',
      '🪝 PreDelete hooks first: Job/backup',
      '🗑 wave 0 · 1 resource: ConfigMap/cfg',
      '🪝 PostDelete hooks last: Job/notify',
    ]);
    expect(orphan.join('\n')).not.toContain('hooks');
  });

  it('names only the Delete=confirm objects that fit, and only those count as shown (confirmShown)', () => {
    const confirm = { 'argocd.argoproj.io/sync-options': 'Delete=confirm' };
    const many = Array.from({ length: 60 }, (_, i) => cm(`careful-${'x'.repeat(60)}-${i}`, confirm));
    const plan = planDeletion(
      { name: 'shop', namespace: 'argocd', finalizers: ['resources-finalizer.argocd.argoproj.io'] },
      many,
    );

    const view = deletionPlanView(plan);

    expect(view.confirm!.length).toBeLessThanOrEqual(3000);
    expect(view.confirmShown.length).toBeGreaterThan(0);
    expect(view.confirmShown.length).toBeLessThan(60);
    for (const key of view.confirmShown)
      expect(view.confirm).toContain(`ConfigMap/${key.name},`.slice(0, -1));
    const hidden = 60 - view.confirmShown.length;
    expect(view.confirm).toContain(
      `and ${hidden} more — confirming deletes the listed ones only; the ${hidden} not listed stay unconfirmed`,
    );
    const message = deletionConfirmationBlocks(plan, 'v');
    for (const block of message.blocks as { type: string; text?: { text: string } }[])
      if (block.type === 'section') expect(block.text!.text.length).toBeLessThanOrEqual(3000);
  });
});
