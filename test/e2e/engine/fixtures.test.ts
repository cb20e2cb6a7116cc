import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/applications/manifests/index.js';
import type { HealthStatus, KubeObject } from '../../../src/domain/index.js';
import { sharedFixturesDir } from '../../support/shared-fixtures.js';
import {
  actions,
  type Harness,
  live,
  results,
  startHarness,
  syncFolder,
  syncObjects,
  waves,
} from './support/engine-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

/** A fresh destination namespace per test. */
function freshNamespace(): string {
  return h.freshNamespace('fixture');
}

async function objectsOf(folder: string) {
  return (await loadManifests(sharedFixturesDir(folder))).objects;
}

function withCommand(objects: Awaited<ReturnType<typeof objectsOf>>, name: string, command: string[]) {
  return objects.map((o) => {
    if (o.object.metadata.name !== name) return o;
    const object = structuredClone(o.object) as KubeObject & {
      spec: { containers: { command: string[] }[] };
    };
    object.spec.containers[0]!.command = command;
    return { ...o, object };
  });
}

function withAnnotations(
  objects: Awaited<ReturnType<typeof objectsOf>>,
  name: string,
  annotations: Record<string, string>,
) {
  return objects.map((o) =>
    o.object.metadata.name === name
      ? {
          ...o,
          object: {
            ...o.object,
            metadata: {
              ...o.object.metadata,
              annotations: { ...o.object.metadata.annotations, ...annotations },
            },
          },
        }
      : o,
  );
}

describe('argocd-example-apps fixtures through the simulator', () => {
  it('sync-waves: PreSync schema Job → w0 backend → w1 maint-page-up → w2 frontend → w3 maint-page-down', async () => {
    const namespace = freshNamespace();
    const { state, events } = await syncFolder(h, sharedFixturesDir('argocd-example-apps/sync-waves'), {
      namespace,
    });

    expect(state.phase).toBe('Succeeded');
    expect(waves(events)).toEqual(['PreSync/0', 'Sync/0', 'Sync/1', 'Sync/2', 'Sync/3']);
    const names = actions(events);
    expect(names[0]).toMatch(/^hook Job\/upgrade-sql-schema[0-9a-f]{7}-presync-\d+$/);
    expect(names.slice(1)).toEqual([
      'apply Service/backend',
      'apply ReplicaSet/backend',
      'hook Job/maint-page-up',
      'apply Service/frontend',
      'apply ReplicaSet/frontend',
      'hook Job/maint-page-down',
    ]);
    expect(state.message).toBe('successfully synced (no more tasks)');
    expect(live(h, 'batch/v1', 'Job', 'maint-page-down', namespace)).toBeDefined(); // BeforeHookCreation keeps it
  });

  it('pre-post-sync (Kustomize): PreSync Job, then Service and Deployment until Healthy, then PostSync; hooks deleted', async () => {
    const namespace = freshNamespace();
    const { state, events } = await syncFolder(h, sharedFixturesDir('argocd-example-apps/pre-post-sync'), {
      namespace,
    });

    expect(state.phase).toBe('Succeeded');
    expect(waves(events)).toEqual(['PreSync/0', 'Sync/0', 'PostSync/0']);
    expect(actions(events)).toEqual([
      'hook Job/pre-post-sync-before',
      'apply Service/pre-post-sync-kustomize-guestbook-ui',
      'apply Deployment/pre-post-sync-kustomize-guestbook-ui',
      'hook Job/pre-post-sync-after',
    ]);
    const syncWave = events.find((e) => e.type === 'WaveCompleted' && e.wave.phase === 'Sync');
    expect(
      syncWave?.type === 'WaveCompleted' && syncWave.health.every((x) => x.health.status === 'Healthy'),
    ).toBe(true);
    for (const name of ['pre-post-sync-before', 'pre-post-sync-after']) {
      await h.sim.waitFor({ apiVersion: 'batch/v1', kind: 'Job', namespace, name }, (o) => o === undefined);
    }
  });
});

describe('argo-cd e2e fixtures through the simulator', () => {
  it('hook: the Sync hook Pod and the Pod share Sync wave 0; Succeeds with 2 results', async () => {
    const namespace = freshNamespace();
    const { state } = await syncFolder(h, sharedFixturesDir('argo-cd-e2e/hook'), { namespace });

    expect(state.phase).toBe('Succeeded');
    // `pod` is a plain resource of the final wave: its hookPhase is Running unless a pass saw its container
    // finish before the hook did (spec §4.12: final-wave results are not re-evaluated) — a race in Argo CD too.
    const [hook, pod] = results(state);
    expect(hook).toEqual(['hook', 'Sync', 'Synced', 'Succeeded']);
    expect(pod?.slice(0, 3)).toEqual(['pod', 'Sync', 'Synced']);
    expect(['Running', 'Succeeded']).toContain(pod?.[3]);
    expect(results(state)).toHaveLength(2);
    expect(live(h, 'v1', 'Pod', 'hook', namespace)?.metadata.finalizers ?? []).toEqual([]);
  });

  it('hook: a failing PreSync hook fails the operation with 1 result and pod is never created', async () => {
    const namespace = freshNamespace();
    const objects = withAnnotations(
      withCommand(await objectsOf('argo-cd-e2e/hook'), 'hook', ['false']),
      'hook',
      {
        'argocd.argoproj.io/hook': 'PreSync',
      },
    );
    const { state } = await syncObjects(h, objects, { namespace });

    expect(state.phase).toBe('Failed');
    expect(results(state)).toEqual([['hook', 'PreSync', 'Synced', 'Failed']]);
    expect(live(h, 'v1', 'Pod', 'pod', namespace)).toBeUndefined();
  });

  it('hook-and-deployment: Succeeds once the Sync hook Job completes; the app health stays Progressing', async () => {
    const namespace = freshNamespace();
    // The fixture's Deployment never passes its readiness probe; the simulator runs no probes, so the same
    // "never Ready" is reproduced with an image that cannot be pulled.
    const objects = (await objectsOf('argo-cd-e2e/hook-and-deployment')).map((o) => {
      if (o.object.kind !== 'Deployment') return o;
      const object = structuredClone(o.object) as KubeObject & {
        spec: { template: { spec: { containers: { image: string }[] } } };
      };
      object.spec.template.spec.containers[0]!.image =
        'quay.io/argoprojlabs/argocd-e2e-container:does-not-exist';
      return { ...o, object };
    });
    const { state } = await syncObjects(h, objects, { namespace, options: { healthTimeoutMs: 1_000 } });

    expect(state.phase).toBe('Succeeded');
    expect(results(state).map(([name, , , phase]) => [name, phase])).toEqual([
      ['my-deployment', 'Running'],
      ['my-hook', 'Succeeded'],
    ]);
    expect(state.health?.status).toBe('Progressing');
  });

  it('failure-during-sync: CreateNamespace runs first (PreSync), then the invalid ServiceAccount fails', async () => {
    const { state } = await syncFolder(h, sharedFixturesDir('argo-cd-e2e/failure-during-sync'), {
      namespace: 'failure-during-sync',
      operation: { syncOptions: ['CreateNamespace=true'] },
    });

    expect(state.phase).toBe('Failed');
    expect(results(state)).toEqual([
      ['failure-during-sync', 'PreSync', 'Synced', 'Running'],
      ['failure-during-sync', 'Sync', 'SyncFailed', 'Failed'],
    ]);
    expect(state.syncResult.resources[1]?.message).toMatch(
      /metadata\.labels: Invalid value: "has-inva\/id-character!"/,
    );
    expect(live(h, 'v1', 'Namespace', 'failure-during-sync', '')).toBeDefined();
    expect(live(h, 'v1', 'ServiceAccount', 'failure-during-sync', 'failure-during-sync')).toBeUndefined();
  });

  it('crd-creation: both CRDs, then their custom resources (dry run skipped for them); Succeeds', async () => {
    const namespace = freshNamespace();
    const { state, events } = await syncFolder(h, sharedFixturesDir('argo-cd-e2e/crd-creation'), {
      namespace,
    });

    expect(state.phase).toBe('Succeeded');
    expect(actions(events)).toEqual([
      'apply CustomResourceDefinition/clusterdummies.argoproj.io',
      'apply CustomResourceDefinition/dummies.argoproj.io',
      'apply ClusterDummy/cluster-dummy-crd-instance',
      'apply Dummy/dummy-crd-instance',
      'apply Dummy/dummy-crd-instance',
    ]);
    expect(live(h, 'argoproj.io/v1alpha1', 'Dummy', 'dummy-crd-instance', namespace)?.spec).toEqual({
      cpu: '2000m',
      memory: '32Mi',
    });
    expect(live(h, 'argoproj.io/v1alpha1', 'Dummy', 'dummy-crd-instance', 'kube-system')).toBeDefined();
    expect(live(h, 'argoproj.io/v1alpha1', 'ClusterDummy', 'cluster-dummy-crd-instance', '')).toBeDefined();
  });

  it('sync-waves: a Degraded cm-1 fails the sync with 1 result; once Healthy, a re-sync Succeeds with 2', async () => {
    const namespace = freshNamespace();
    // The fixture's health customization: a ConfigMap is Degraded unless annotated `health: Healthy`.
    const healthOverrides = {
      '/ConfigMap': (o: KubeObject): HealthStatus =>
        o.metadata.annotations?.health === 'Healthy'
          ? { status: 'Healthy' }
          : { status: 'Degraded', message: 'not healthy' },
    };
    const objects = await objectsOf('argo-cd-e2e/sync-waves');
    const first = await syncObjects(h, objects, { namespace, options: { healthOverrides } });

    expect(first.state.phase).toBe('Failed');
    expect(results(first.state)).toEqual([['cm-1', 'Sync', 'Synced', 'Failed']]);
    expect(live(h, 'v1', 'ConfigMap', 'cm-2', namespace)).toBeUndefined();

    const healthy = withAnnotations(withAnnotations(objects, 'cm-1', { health: 'Healthy' }), 'cm-2', {
      health: 'Healthy',
    });
    const second = await syncObjects(h, healthy, { namespace, options: { healthOverrides } });
    expect(second.state.phase).toBe('Succeeded');
    expect(results(second.state)).toHaveLength(2);
    expect(second.state.health?.status).toBe('Healthy');
  });

  it('syncwaves-prune-order: creates SA+Role → RoleBinding → Pod, then prunes Pod → RoleBinding → SA+Role', async () => {
    const namespace = freshNamespace();
    const created = await syncFolder(h, sharedFixturesDir('argo-cd-e2e/syncwaves-prune-order'), {
      namespace,
      application: 'prune-order',
    });
    expect(created.state.phase).toBe('Succeeded');
    expect(waves(created.events)).toEqual(['Sync/0', 'Sync/1', 'Sync/2']);

    // The Pod's preStop hook removes its blocking finalizer once deletion starts; the simulator runs no curl.
    const pod = { apiVersion: 'v1', kind: 'Pod', namespace, name: 'pod-with-finalizers' };
    const released = h.sim
      .waitFor(pod, (o) => o?.metadata.deletionTimestamp !== undefined, 30_000)
      .then((o) => o && h.sim.put({ ...o, metadata: { ...o.metadata, finalizers: [] } }));
    const pruned = await syncObjects(h, [], {
      namespace,
      application: 'prune-order',
      operation: { prune: true },
    });
    await released;

    expect(pruned.state.phase).toBe('Succeeded');
    expect(actions(pruned.events)).toEqual([
      'prune Pod/pod-with-finalizers',
      'prune RoleBinding/modify-pods-rolebinding',
      'prune ServiceAccount/modify-pods-sa', // same wave: kind order, ServiceAccount before Role
      'prune Role/modify-pods-role',
    ]);
    expect(pruned.state.syncResult.resources).toHaveLength(4);
    expect(live(h, 'v1', 'Pod', 'pod-with-finalizers', namespace)).toBeUndefined();
  });

  it('two-nice-pods: prune deletes a removed Pod, Prune=false keeps one, and no --prune skips with a reason', async () => {
    const namespace = freshNamespace();
    const objects = await objectsOf('argo-cd-e2e/two-nice-pods');
    const request = { namespace, application: 'two-nice-pods' };
    expect((await syncObjects(h, objects, request)).state.phase).toBe('Succeeded');

    const withoutPod2 = objects.filter((o) => o.object.metadata.name !== 'pod-2');
    const noPrune = await syncObjects(h, withoutPod2, request);
    expect(noPrune.state.phase).toBe('Succeeded');
    expect(noPrune.state.syncResult.resources.find((r) => r.name === 'pod-2')?.message).toBe(
      'ignored (requires pruning)',
    );
    expect(live(h, 'v1', 'Pod', 'pod-2', namespace)).toBeDefined();

    const pruned = await syncObjects(h, withoutPod2, { ...request, operation: { prune: true } });
    expect(pruned.state.syncResult.resources.find((r) => r.name === 'pod-2')?.status).toBe('Pruned');
    await h.sim.waitFor({ apiVersion: 'v1', kind: 'Pod', namespace, name: 'pod-2' }, (o) => o === undefined);

    const keepPod1 = withAnnotations(withoutPod2, 'pod-1', {
      'argocd.argoproj.io/sync-options': 'Prune=false',
    });
    expect((await syncObjects(h, keepPod1, request)).state.phase).toBe('Succeeded');
    const kept = await syncObjects(h, [], { ...request, operation: { prune: true } });
    expect(kept.state.phase).toBe('Succeeded');
    expect(kept.state.syncResult.resources.map((r) => [r.name, r.status, r.message])).toEqual([
      ['pod-1', 'PruneSkipped', 'ignored (no prune)'],
    ]);
    expect(live(h, 'v1', 'Pod', 'pod-1', namespace)).toBeDefined();
  });
});
