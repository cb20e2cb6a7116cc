import { describe, expect, it } from 'vitest';
import type { KubeObject, SyncEvent, SyncOperation } from '../../../src/domain/index.js';
import { refOf } from '../../../src/engine/cluster.js';
import { runOperation } from '../../../src/engine/run/run-operation.js';
import { DELETE_POLICY, HOOK, obj, sourced, WAVE } from '../../builders/manifest-builders.js';
import { FakeCluster } from '../../fakes/fake-cluster.js';

const operation: SyncOperation = { prune: false, dryRun: false, syncOptions: [] };

function job(name: string, annotations: Record<string, string>): KubeObject {
  return obj('batch/v1', 'Job', name, annotations, { spec: { template: { spec: { containers: [] } } } });
}

/** Scripted controllers: Jobs complete (or fail when named *fail*), Deployments become available. */
function controllers(cluster: FakeCluster, deploymentHealth: 'ok' | 'degraded' = 'ok') {
  cluster.onWrite = (o) => {
    const ref = refOf(o);
    setTimeout(() => {
      if (o.kind === 'Job') {
        const type = o.metadata.name?.includes('fail') ? 'Failed' : 'Complete';
        cluster.update(ref, (j) => {
          j.status = {
            conditions: [{ type, status: 'True', message: type === 'Failed' ? 'BackoffLimitExceeded' : '' }],
          };
        });
      }
      if (o.kind === 'Deployment') {
        const generation = o.metadata.generation;
        cluster.update(ref, (d) => {
          d.status =
            deploymentHealth === 'ok'
              ? { observedGeneration: generation, replicas: 1, updatedReplicas: 1, availableReplicas: 1 }
              : {
                  observedGeneration: generation,
                  conditions: [{ type: 'Progressing', reason: 'ProgressDeadlineExceeded' }],
                };
        });
      }
    }, 5);
  };
}

async function run(cluster: FakeCluster, targets: KubeObject[], op: Partial<SyncOperation> = {}) {
  const events: SyncEvent[] = [];
  const state = await runOperation({
    application: 'shop',
    targets: sourced(...targets),
    namespace: 'app',
    revision: '3f9a2c1d0e',
    operation: { ...operation, ...op },
    cluster,
    reporter: { report: async (e) => void events.push(e) },
    options: { healthTimeoutMs: 500, pollIntervalMs: 50 },
  });
  return { state, events, types: events.map((e) => e.type) };
}

describe('runOperation on an in-memory cluster (spec §11)', () => {
  it('Ex 1: PreSync ConfigMap wave 1, PreSync Job wave 2, then the Deployment', async () => {
    const cluster = new FakeCluster();
    controllers(cluster);
    const { state, types } = await run(cluster, [
      obj('v1', 'ConfigMap', 'cfg', { [HOOK]: 'PreSync', [WAVE]: '1' }),
      job('migrate', { [HOOK]: 'PreSync', [WAVE]: '2' }),
      obj('apps/v1', 'Deployment', 'web', {}, { spec: { replicas: 1 } }),
    ]);

    expect(cluster.written()).toEqual(['ConfigMap/cfg', 'Job/migrate', 'Deployment/web']);
    expect(state.phase).toBe('Succeeded');
    expect(state.message).toBe('successfully synced (all tasks run)');
    expect(state.health?.status).toBe('Healthy');
    expect(types[0]).toBe('OperationStarted');
    // The Deployment is not Healthy at once: the app-health wait says so (HealthWaiting) before HealthAssessed.
    expect(types.filter((t) => t !== 'HealthWaiting').slice(-2)).toEqual([
      'OperationCompleted',
      'HealthAssessed',
    ]);
    expect(types.filter((t) => t === 'WaveStarted')).toHaveLength(3);
    expect(types.filter((t) => t === 'HookFinished')).toHaveLength(2);
    const hookFinalizers = [...cluster.objects.values()].flatMap((o) => o.metadata.finalizers ?? []);
    expect(hookFinalizers).toEqual([]);
  });

  it('on a re-sync, every step announced as started is announced as completed, hook steps included', async () => {
    const cluster = new FakeCluster();
    controllers(cluster);
    const targets = [
      obj('v1', 'ConfigMap', 'cfg', { [HOOK]: 'PreSync', [WAVE]: '1' }),
      job('migrate', { [HOOK]: 'PreSync', [WAVE]: '2' }),
      obj('apps/v1', 'Deployment', 'web', {}, { spec: { replicas: 1 } }),
    ];
    await run(cluster, targets);
    const { state, events } = await run(cluster, targets);

    const steps = (type: SyncEvent['type']) =>
      events.flatMap((e) => (e.type === type && 'wave' in e ? [`${e.wave.phase}/${e.wave.wave}`] : []));
    expect(state.phase).toBe('Succeeded');
    expect(steps('WaveStarted')).toEqual(['PreSync/1', 'PreSync/2', 'Sync/0']);
    expect(steps('WaveCompleted')).toEqual(['PreSync/1', 'PreSync/2', 'Sync/0']);
  });

  it('Ex 3: a failing PreSync Job runs the SyncFail hook and never applies the Sync phase', async () => {
    const cluster = new FakeCluster();
    controllers(cluster);
    const { state, events } = await run(cluster, [
      job('migrate-fail', { [HOOK]: 'PreSync', [DELETE_POLICY]: 'HookFailed' }),
      obj('apps/v1', 'Deployment', 'web'),
      job('smoke', { [HOOK]: 'PostSync' }),
      job('notify', { [HOOK]: 'SyncFail' }),
    ]);

    expect(cluster.written()).toEqual(['Job/migrate-fail', 'Job/notify']);
    expect(state.phase).toBe('Failed');
    expect(state.message).toBe(
      'one or more synchronization tasks completed unsuccessfully, reason: BackoffLimitExceeded',
    );
    expect(state.syncResult.resources.map((r) => [r.name, r.syncPhase, r.hookPhase])).toEqual([
      ['migrate-fail', 'PreSync', 'Failed'],
      ['notify', 'SyncFail', 'Succeeded'],
    ]);
    expect(cluster.written('delete')).toContain('Job/migrate-fail');
    expect(events.some((e) => e.type === 'SyncFailStarted')).toBe(true);
  });

  it('a Degraded Deployment in wave 1 stops wave 2 from starting', async () => {
    const cluster = new FakeCluster();
    controllers(cluster, 'degraded');
    const { state } = await run(cluster, [
      obj('apps/v1', 'Deployment', 'api', { [WAVE]: '1' }, { spec: { replicas: 1 } }),
      obj('v1', 'ConfigMap', 'later', { [WAVE]: '2' }),
    ]);

    expect(cluster.written()).toEqual(['Deployment/api']);
    expect(state.phase).toBe('Failed');
    expect(state.message).toMatch(/exceeded its progress deadline/);
    expect(state.health?.status).toBe('Degraded');
  });

  it('fails validation for a kind the API server does not serve, before applying anything', async () => {
    const cluster = new FakeCluster();
    const { state } = await run(cluster, [
      obj('v1', 'ConfigMap', 'a'),
      obj('argoproj.io/v1alpha1', 'Rollout', 'r'),
    ]);

    expect(state.phase).toBe('Failed');
    expect(state.message).toMatch(
      /^one or more synchronization tasks are not valid: the server could not find/,
    );
    expect(cluster.log).toEqual([]);
  });

  it('fails the dry run with the API message and changes nothing', async () => {
    const cluster = new FakeCluster();
    cluster.reject = (o) => (o.metadata.name === 'bad' ? 'metadata.labels: Invalid value: "-x-"' : undefined);
    const { state } = await run(cluster, [obj('v1', 'ConfigMap', 'good'), obj('v1', 'ConfigMap', 'bad')]);

    expect(state.phase).toBe('Failed');
    expect(state.message).toBe(
      'one or more objects failed to apply (dry run), reason: ConfigMap/bad: metadata.labels: Invalid value: "-x-"',
    );
    expect(cluster.written()).toEqual([]);
    expect(state.syncResult.resources.map((r) => [r.name, r.status])).toEqual([['bad', 'SyncFailed']]);
  });
});
