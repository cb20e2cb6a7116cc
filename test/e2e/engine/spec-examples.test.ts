import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/domain/index.js';
import type { SourcedObject } from '../../../src/engine/index.js';
import { crd, DELETE_POLICY, HOOK, obj, sourced, WAVE } from '../../builders/manifest-builders.js';
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
  return h.freshNamespace('spec');
}

function job(name: string, command: string, annotations: Record<string, string> = {}): KubeObject {
  return obj('batch/v1', 'Job', name, annotations, {
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

function deployment(
  name: string,
  image: string,
  annotations: Record<string, string> = {},
  extra: object = {},
): KubeObject {
  return obj('apps/v1', 'Deployment', name, annotations, {
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image }] } },
      ...extra,
    },
  });
}

function pod(name: string, command: string, annotations: Record<string, string> = {}): KubeObject {
  return obj('v1', 'Pod', name, annotations, {
    spec: {
      restartPolicy: 'Never',
      containers: [{ name: 'main', image: 'alpine:3.20', command: ['sh', '-c', command] }],
    },
  });
}

const widgetCrd = (annotations: Record<string, string> = {}) => {
  const o = crd('example.com', 'Widget', 'widgets', annotations);
  o.spec = {
    group: 'example.com',
    names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  };
  return o;
};

const targets = (...objects: KubeObject[]): SourcedObject[] => sourced(...objects);

describe('spec §11 worked examples against the simulator', () => {
  it('Ex 2: one wave, kind order Namespace → ConfigMap → Service → Deployment → Widget; Succeeds at once', async () => {
    await syncObjects(h, targets(widgetCrd()), { application: 'ex2-crd' });
    const { state, events } = await syncObjects(
      h,
      targets(
        deployment('web', 'nginx:1.27', {}, {}),
        obj(
          'v1',
          'Service',
          'web',
          {},
          { namespace: 'shop', spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } },
        ),
        obj('v1', 'ConfigMap', 'web-config', {}, { namespace: 'shop' }),
        obj('v1', 'Namespace', 'shop'),
        obj('example.com/v1', 'Widget', 'w1', {}, { namespace: 'shop' }),
      ).map((t) =>
        t.object.kind === 'Deployment'
          ? { ...t, object: { ...t.object, metadata: { ...t.object.metadata, namespace: 'shop' } } }
          : t,
      ),
      { application: 'ex2' },
    );

    expect(state.phase).toBe('Succeeded');
    expect(state.message).toBe('successfully synced (all tasks run)');
    expect(actions(events)).toEqual([
      'apply Namespace/shop',
      'apply ConfigMap/web-config',
      'apply Service/web',
      'apply Deployment/web',
      'apply Widget/w1',
    ]);
  });

  it('Ex 3: a failing PreSync Job runs the SyncFail hook and the Sync phase is skipped', async () => {
    const namespace = freshNamespace();
    const { state, events } = await syncObjects(
      h,
      targets(
        job('migrate', 'echo rake aborted; exit 1', { [HOOK]: 'PreSync', [DELETE_POLICY]: 'HookFailed' }),
        deployment('web', 'nginx:1.27'),
        job('smoke', 'echo ok', { [HOOK]: 'PostSync' }),
        job('notify', 'echo sync failed', { [HOOK]: 'SyncFail' }),
      ),
      { namespace },
    );

    expect(state.phase).toBe('Failed');
    expect(state.message).toMatch(/^one or more synchronization tasks completed unsuccessfully/);
    expect(results(state)).toEqual([
      ['migrate', 'PreSync', 'Synced', 'Failed'],
      ['notify', 'SyncFail', 'Synced', 'Succeeded'],
    ]);
    expect(state.syncResult.resources[0]?.logTail).toEqual(['rake aborted']);
    expect(events.map((e) => e.type)).toContain('SyncFailStarted');
    expect(live(h, 'apps/v1', 'Deployment', 'web', namespace)).toBeUndefined();
    expect(live(h, 'batch/v1', 'Job', 'migrate', namespace)).toBeUndefined(); // HookFailed
  });

  it('Ex 4: negative waves with a CRD and its CR, dry run of the CR skipped, then Deployment and Ingress', async () => {
    const namespace = freshNamespace();
    const gadgets = widgetCrd({ [WAVE]: '-2' });
    gadgets.metadata.name = 'gadgets.example.org';
    gadgets.spec = {
      ...(gadgets.spec as object),
      group: 'example.org',
      names: { kind: 'Gadget', plural: 'gadgets', singular: 'gadget', listKind: 'GadgetList' },
    };
    const { state, events } = await syncObjects(
      h,
      targets(
        gadgets,
        obj('example.org/v1', 'Gadget', 'g1', { [WAVE]: '-1' }),
        deployment('web', 'nginx:1.27'),
        obj(
          'networking.k8s.io/v1',
          'Ingress',
          'web',
          { [WAVE]: '+1' },
          { spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } } },
        ),
      ),
      { namespace },
    );

    expect(state.phase).toBe('Succeeded');
    expect(waves(events)).toEqual(['Sync/-2', 'Sync/-1', 'Sync/0', 'Sync/1']);
    expect(actions(events)).toEqual([
      'apply CustomResourceDefinition/gadgets.example.org',
      'apply Gadget/g1',
      'apply Deployment/web',
      'apply Ingress/web',
    ]);
  });

  it('Ex 6: a named hook is deleted and re-created on the next sync; a generateName hook is new every time', async () => {
    const namespace = freshNamespace();
    const hooks = targets(job('db-migrate', 'echo migrate', { [HOOK]: 'PreSync' }), {
      ...job('', 'echo seed', { [HOOK]: 'PreSync' }),
      metadata: { generateName: 'seed-', annotations: { [HOOK]: 'PreSync' } },
    });
    const first = await syncObjects(h, hooks, { namespace });
    const firstUid = live(h, 'batch/v1', 'Job', 'db-migrate', namespace)?.metadata.uid;
    // §5.1: generated names end in the operation's start in epoch seconds, so two operations started within the
    // same second rightly share one name. Start the second one in a later second.
    await untilSecondAfter(first.state.startedAt);
    const second = await syncObjects(h, hooks, { namespace });

    expect(first.state.phase).toBe('Succeeded');
    expect(second.state.phase).toBe('Succeeded');
    expect(live(h, 'batch/v1', 'Job', 'db-migrate', namespace)?.metadata.uid).not.toBe(firstUid);
    const seeds = h.sim
      .list('batch/v1', 'Job', namespace)
      .filter((j) => j.metadata.name?.startsWith('seed-'));
    expect(seeds).toHaveLength(2);
  });

  it('Ex 7: Helm hooks map to phases and hook-weight to waves (argocd-example-apps/helm-hooks)', async () => {
    const namespace = freshNamespace();
    const { state, events } = await syncFolder(h, sharedFixturesDir('argocd-example-apps/helm-hooks'), {
      namespace,
    });

    expect(state.phase).toBe('Succeeded');
    expect(waves(events)).toEqual(['PreSync/-2', 'PreSync/-1', 'Sync/0', 'Sync/2', 'PostSync/0']);
  });

  it('Ex 8: a Namespace in wave 5 is bubbled to PreSync/0 ahead of the PreSync Job in it', async () => {
    const { state, events } = await syncObjects(
      h,
      targets(
        obj('v1', 'Namespace', 'team', { [WAVE]: '5' }),
        {
          ...job('seed', 'echo seeded', { [HOOK]: 'PreSync' }),
          metadata: { name: 'seed', namespace: 'team', annotations: { [HOOK]: 'PreSync' } },
        },
        { ...deployment('api', 'nginx:1.27'), metadata: { name: 'api', namespace: 'team' } },
      ),
      { application: 'ex8' },
    );

    expect(state.phase).toBe('Succeeded');
    expect(waves(events)).toEqual(['PreSync/0', 'Sync/0']);
    expect(actions(events)).toEqual(['apply Namespace/team', 'hook Job/seed', 'apply Deployment/api']);
  });

  it('Ex 10: one wave with a Sync hook Pod waits only for the hook', async () => {
    const namespace = freshNamespace();
    const { state, events } = await syncObjects(
      h,
      targets(deployment('web', 'nginx:1.27'), pod('check', 'echo checked', { [HOOK]: 'Sync' })),
      { namespace },
    );

    expect(state.phase).toBe('Succeeded');
    expect(state.message).toBe('successfully synced (no more tasks)');
    expect(actions(events)).toEqual(['hook Pod/check', 'apply Deployment/web']);
  });

  it('a Degraded Deployment in wave 1 stops wave 2 from starting', async () => {
    const namespace = freshNamespace();
    const { state } = await syncObjects(
      h,
      targets(
        deployment(
          'api',
          'registry.example/api:does-not-exist',
          { [WAVE]: '1' },
          { progressDeadlineSeconds: 5 },
        ),
        obj('v1', 'ConfigMap', 'after', { [WAVE]: '2' }),
      ),
      { namespace },
    );

    expect(state.phase).toBe('Failed');
    expect(state.message).toMatch(/exceeded its progress deadline/);
    expect(live(h, 'v1', 'ConfigMap', 'after', namespace)).toBeUndefined();
    expect(state.health?.status).toBe('Degraded');
  });

  it('a Deployment that never becomes healthy ends in the operation timeout, naming it', async () => {
    const namespace = freshNamespace();
    const { state } = await syncObjects(
      h,
      targets(
        deployment('stuck', 'registry.example/stuck:does-not-exist', { [WAVE]: '0' }),
        obj('v1', 'ConfigMap', 'next', { [WAVE]: '1' }),
      ),
      { namespace, options: { operationTimeoutMs: 3_000, healthTimeoutMs: 200 } },
    );

    expect(state.phase).toBe('Failed');
    expect(state.message).toMatch(
      /^Operation terminated: timed out after 3s waiting for apps\/Deployment\/stuck \(Progressing/,
    );
    expect(live(h, 'v1', 'ConfigMap', 'next', namespace)).toBeUndefined();
  });
});

/** Resolves once the wall clock is in a later epoch second than `iso`. */
async function untilSecondAfter(iso: string): Promise<void> {
  const second = Math.floor(Date.parse(iso) / 1000);
  while (Math.floor(Date.now() / 1000) <= second) await new Promise((r) => setTimeout(r, 50));
}
