import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actions,
  type Harness,
  live,
  results,
  startHarness,
  syncFolder,
  waves,
} from './support/engine-harness.js';

const examples = path.resolve(import.meta.dirname, '../../../examples');
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

describe('the seed case: a Rails app whose migration reads a ConfigMap (examples/rails)', () => {
  it('runs ConfigMap (PreSync 1) → migration Job (PreSync 2) → web (Sync) → smoke test (PostSync) and Succeeds', async () => {
    const { state, events } = await syncFolder(h, path.join(examples, 'rails'), { application: 'rails' });

    expect(state.phase).toBe('Succeeded');
    expect(waves(events)).toEqual(['PreSync/1', 'PreSync/2', 'Sync/0', 'PostSync/0']);
    expect(actions(events)).toEqual([
      'hook ConfigMap/rails-env',
      'hook Job/db-migrate',
      'apply Service/web',
      'apply Deployment/web',
      'apply Ingress/web',
      'hook Job/smoke-test',
    ]);
    const configMapDone = events.find((e) => e.type === 'HookFinished' && e.task.name === 'rails-env');
    const jobStarted = events.find((e) => e.type === 'HookStarted' && e.task.name === 'db-migrate');
    expect(configMapDone && jobStarted && configMapDone.at <= jobStarted.at).toBe(true);
    const migrate = state.syncResult.resources.find((r) => r.name === 'db-migrate');
    expect(migrate).toMatchObject({
      syncPhase: 'PreSync',
      wave: 2,
      status: 'Synced',
      hookPhase: 'Succeeded',
    });
    expect(migrate?.logTail).toEqual(['== migrating', '== done']);
    expect(live(h, 'apps/v1', 'Deployment', 'web')?.metadata.annotations).toMatchObject({
      'argocd.argoproj.io/tracking-id': 'rails:apps/Deployment:default/web',
    });
    const smokeTest = { apiVersion: 'batch/v1', kind: 'Job', namespace: 'default', name: 'smoke-test' };
    await h.sim.waitFor(smokeTest, (o) => o === undefined); // HookSucceeded: deleted (foreground)
    expect(live(h, 'batch/v1', 'Job', 'db-migrate')?.metadata.finalizers ?? []).toEqual([]);
    expect(state.health?.status).toBe('Healthy');
    expect(results(state).map(([name]) => name)).toEqual([
      'rails-env',
      'db-migrate',
      'web',
      'web',
      'web',
      'smoke-test',
    ]);
  });

  it('without the waves (ConfigMap a plain resource, Job first) fails naming the missing ConfigMap', async () => {
    const { state, events } = await syncFolder(h, path.join(examples, 'rails-broken-waves'), {
      application: 'rails-broken',
      namespace: 'broken',
      operation: { syncOptions: ['CreateNamespace=true'] },
    });

    expect(state.phase).toBe('Failed');
    expect(state.message).toMatch(/one or more synchronization tasks completed unsuccessfully, reason: /);
    expect(state.message).toMatch(/CreateContainerConfigError: configmap "rails-env" not found/);
    expect(actions(events)).toEqual(['apply Namespace/broken', 'hook Job/db-migrate']);
    expect(live(h, 'apps/v1', 'Deployment', 'web', 'broken')).toBeUndefined();
    expect(live(h, 'v1', 'ConfigMap', 'rails-env', 'broken')).toBeUndefined();
  });
});
