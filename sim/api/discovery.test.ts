import { type KubernetesObject, KubernetesObjectApi, PatchStrategy } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../index.js';
import { kubeClients } from '../testing/kube-clients.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ speed: 20 });
});
afterAll(() => sim.stop());

async function getJson(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${sim.url}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const DUMMY_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'dummies.argoproj.io' },
  spec: {
    group: 'argoproj.io',
    scope: 'Namespaced',
    names: { kind: 'Dummy', listKind: 'DummyList', plural: 'dummies', singular: 'dummy', shortNames: ['dm'] },
    versions: [
      {
        name: 'v1alpha1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: { spec: { type: 'object', properties: { cpu: { type: 'string' } } } },
          },
        },
      },
    ],
  },
};

describe('discovery', () => {
  it('serves /version, /api and /apis', async () => {
    expect((await getJson('/version')).body).toMatchObject({ major: '1', minor: '32' });
    expect((await getJson('/api')).body).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const groups = (await getJson('/apis')).body.groups as {
      name: string;
      preferredVersion: { groupVersion: string };
    }[];
    expect(groups.map((g) => g.name)).toEqual(
      expect.arrayContaining([
        'apps',
        'batch',
        'networking.k8s.io',
        'rbac.authorization.k8s.io',
        'apiextensions.k8s.io',
        'storage.k8s.io',
        'apiregistration.k8s.io',
        'policy',
        'autoscaling',
      ]),
    );
    expect(groups.find((g) => g.name === 'apps')?.preferredVersion.groupVersion).toBe('apps/v1');
  });

  it('lists resources with singularName, namespaced, kind, verbs and shortNames', async () => {
    const { body } = await getJson('/apis/apps/v1');
    const resources = body.resources as Record<string, unknown>[];
    expect(body).toMatchObject({ kind: 'APIResourceList', groupVersion: 'apps/v1' });
    expect(resources.find((r) => r.name === 'deployments')).toEqual({
      name: 'deployments',
      singularName: 'deployment',
      namespaced: true,
      kind: 'Deployment',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['deploy'],
    });
    expect(resources.map((r) => r.name)).toContain('deployments/status');
    const core = (await getJson('/api/v1')).body.resources as Record<string, unknown>[];
    expect(core.find((r) => r.name === 'namespaces')).toMatchObject({
      namespaced: false,
      kind: 'Namespace',
      shortNames: ['ns'],
    });
    expect(core.find((r) => r.name === 'pods/log')).toMatchObject({ verbs: ['get'] });
  });

  it('answers 404 Status for unknown groups and resources', async () => {
    const missing = await getJson('/apis/argoproj.io/v1alpha1');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404 });
    expect((await getJson('/api/v1/namespaces/default/widgets')).status).toBe(404);
  });

  it('serves a CRD only once it is Established, and client-node then resolves its kind', async () => {
    const { kc, objects } = kubeClients(sim);
    const dummy = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Dummy',
      metadata: { name: 'd1', namespace: 'default' },
      spec: { cpu: '1' },
    } as KubernetesObject;
    await expect(objects.create(dummy)).rejects.toThrow(
      /Failed to fetch resource metadata for argoproj.io\/v1alpha1\/Dummy: HTTP-Code: 404/,
    );
    await objects.patch(DUMMY_CRD, undefined, undefined, 'test', true, PatchStrategy.ServerSideApply);
    const crd = await sim.waitFor(
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        name: 'dummies.argoproj.io',
      },
      (o) =>
        ((o?.status as { conditions?: { type: string; status: string }[] })?.conditions ?? []).some(
          (c) => c.type === 'Established' && c.status === 'True',
        ),
    );
    expect(crd?.status).toMatchObject({
      acceptedNames: { kind: 'Dummy', plural: 'dummies' },
      storedVersions: ['v1alpha1'],
    });
    const list = (await getJson('/apis/argoproj.io/v1alpha1')).body.resources as Record<string, unknown>[];
    expect(list[0]).toMatchObject({
      name: 'dummies',
      singularName: 'dummy',
      namespaced: true,
      kind: 'Dummy',
      shortNames: ['dm'],
    });
    const fresh = KubernetesObjectApi.makeApiClient(kc);
    const created = await fresh.create(dummy);
    expect(created.metadata?.generation).toBe(1);
    expect(
      ((await fresh.read({ ...dummy, metadata: { name: 'd1', namespace: 'default' } })) as { spec?: unknown })
        .spec,
    ).toEqual({ cpu: '1' });
  });
});
