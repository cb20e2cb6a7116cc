import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/domain/index.js';
import { obj, SYNC_OPTIONS, sourced } from '../../builders/manifest-builders.js';
import { type Harness, live, startHarness, syncObjects } from './support/engine-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

/** A Job: its pod template is immutable once created, so a changed command cannot be applied in place. */
function job(command: string, syncOptions?: string): KubeObject {
  return obj('batch/v1', 'Job', 'seed-data', syncOptions ? { [SYNC_OPTIONS]: syncOptions } : {}, {
    spec: {
      backoffLimit: 0,
      template: {
        spec: {
          restartPolicy: 'Never',
          containers: [{ name: 'main', image: 'alpine:3.20', command: ['sh', '-c', command] }],
        },
      },
    },
  });
}

function commandOf(o: KubeObject | undefined): unknown {
  return (o as { spec?: { template?: { spec?: { containers?: { command?: unknown }[] } } } } | undefined)
    ?.spec?.template?.spec?.containers?.[0]?.command;
}

describe('Force=true (spec §4.13: kubectl --force deletes and re-creates)', () => {
  it('without Force, a changed Job template fails the server dry run with the API message and nothing changes', async () => {
    const namespace = h.freshNamespace('force');
    expect((await syncObjects(h, sourced(job('echo v1')), { namespace })).state.phase).toBe('Succeeded');
    const before = live(h, 'batch/v1', 'Job', 'seed-data', namespace);

    const { state } = await syncObjects(h, sourced(job('echo v2')), { namespace });

    expect(state.phase).toBe('Failed');
    expect(state.message).toMatch(/immutable/);
    const after = live(h, 'batch/v1', 'Job', 'seed-data', namespace);
    expect(after?.metadata.uid).toBe(before?.metadata.uid);
    expect(commandOf(after)).toEqual(['sh', '-c', 'echo v1']);
  });

  it('with Force=true on the object, the refused apply becomes delete + create: a new Job with the new template', async () => {
    const namespace = h.freshNamespace('force');
    await syncObjects(h, sourced(job('echo v1', 'Force=true')), { namespace });
    const before = live(h, 'batch/v1', 'Job', 'seed-data', namespace);

    const { state } = await syncObjects(h, sourced(job('echo v2', 'Force=true')), { namespace });

    expect(state.phase).toBe('Succeeded');
    const result = state.syncResult.resources.find((r) => r.kind === 'Job');
    expect(result?.message).toBe('job.batch/seed-data deleted and re-created (Force=true)');
    const after = live(h, 'batch/v1', 'Job', 'seed-data', namespace);
    expect(after?.metadata.uid).not.toBe(before?.metadata.uid);
    expect(commandOf(after)).toEqual(['sh', '-c', 'echo v2']);
  });

  it('with Replace=true and Force=true from the operation, an unchanged object is still deleted and re-created (replace --force)', async () => {
    const namespace = h.freshNamespace('force');
    const operation = { syncOptions: ['Replace=true', 'Force=true'] };
    await syncObjects(h, sourced(job('echo v1')), { namespace, operation });
    const before = live(h, 'batch/v1', 'Job', 'seed-data', namespace);

    const { state } = await syncObjects(h, sourced(job('echo v1')), { namespace, operation });

    expect(state.phase).toBe('Succeeded');
    expect(live(h, 'batch/v1', 'Job', 'seed-data', namespace)?.metadata.uid).not.toBe(before?.metadata.uid);
  });

  it('a dry-run operation with Force=true passes (the Job would be re-created) and leaves the Job alone', async () => {
    const namespace = h.freshNamespace('force');
    await syncObjects(h, sourced(job('echo v1', 'Force=true')), { namespace });
    const before = live(h, 'batch/v1', 'Job', 'seed-data', namespace);

    const { state } = await syncObjects(h, sourced(job('echo v2', 'Force=true')), {
      namespace,
      operation: { dryRun: true },
    });

    expect(state.phase).toBe('Succeeded');
    expect(live(h, 'batch/v1', 'Job', 'seed-data', namespace)?.metadata.uid).toBe(before?.metadata.uid);
  });

  describe('with ApplyOutOfSyncOnly=true (a task is skipped only when its dry run shows no change)', () => {
    const outOfSyncOnly = (...more: string[]) => ({ syncOptions: ['ApplyOutOfSyncOnly=true', ...more] });

    it('a changed Job with Force=true is not skipped: it is re-created with the new template', async () => {
      const namespace = h.freshNamespace('force-oso');
      await syncObjects(h, sourced(job('echo v1', 'Force=true')), { namespace, operation: outOfSyncOnly() });
      const before = live(h, 'batch/v1', 'Job', 'seed-data', namespace);

      const { state } = await syncObjects(h, sourced(job('echo v2', 'Force=true')), {
        namespace,
        operation: outOfSyncOnly(),
      });

      expect(state.phase).toBe('Succeeded');
      expect(state.syncResult.resources.find((r) => r.kind === 'Job')?.message).toBe(
        'job.batch/seed-data deleted and re-created (Force=true)',
      );
      const after = live(h, 'batch/v1', 'Job', 'seed-data', namespace);
      expect(after?.metadata.uid).not.toBe(before?.metadata.uid);
      expect(commandOf(after)).toEqual(['sh', '-c', 'echo v2']);
    });

    it('a changed Job with Replace=true and Force=true from the operation is re-created; an unchanged one is skipped', async () => {
      const namespace = h.freshNamespace('force-oso');
      const operation = outOfSyncOnly('Replace=true', 'Force=true');
      await syncObjects(h, sourced(job('echo v1')), { namespace, operation });
      const first = live(h, 'batch/v1', 'Job', 'seed-data', namespace);

      const unchanged = await syncObjects(h, sourced(job('echo v1')), { namespace, operation });
      const second = live(h, 'batch/v1', 'Job', 'seed-data', namespace);
      const changed = await syncObjects(h, sourced(job('echo v2')), { namespace, operation });

      expect(unchanged.state.phase).toBe('Succeeded');
      expect(second?.metadata.uid).toBe(first?.metadata.uid);
      expect(changed.state.phase).toBe('Succeeded');
      const third = live(h, 'batch/v1', 'Job', 'seed-data', namespace);
      expect(third?.metadata.uid).not.toBe(second?.metadata.uid);
      expect(commandOf(third)).toEqual(['sh', '-c', 'echo v2']);
    });
  });
});
