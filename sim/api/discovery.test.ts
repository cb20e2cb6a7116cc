import { type KubernetesObject, KubernetesObjectApi, PatchStrategy } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../index.js';
import { kubeClients } from '../testing/kube-clients.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ speed: 20 });
});
afterAll(() => sim.stop());

async function getJson(
  path: string,
  accept?: string,
): Promise<{ status: number; body: Record<string, unknown>; contentType: string | null }> {
  const res = await fetch(`${sim.url}${path}`, accept === undefined ? {} : { headers: { accept } });
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, body, contentType: res.headers.get('content-type') };
}

/** What kubectl 1.32 and client-go send for /api and /apis. */
const KUBECTL_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,' +
  'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

interface AggregatedResource {
  resource: string;
  responseKind: { group: string; version: string; kind: string };
  scope: string;
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: { subresource: string; responseKind: object; verbs: string[] }[];
}
interface AggregatedGroup {
  metadata: { name?: string };
  versions: { version: string; resources: AggregatedResource[]; freshness: string }[];
}

async function aggregated(path: '/api' | '/apis'): Promise<AggregatedGroup[]> {
  const { body, contentType } = await getJson(path, KUBECTL_ACCEPT);
  expect(contentType).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
  expect(body).toMatchObject({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2' });
  return body.items as AggregatedGroup[];
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

  it('answers /api and /apis in the aggregated form (apidiscovery.k8s.io/v2) when the Accept asks for it', async () => {
    const [core, ...others] = await aggregated('/api');
    expect(others).toEqual([]);
    expect(core?.metadata.name ?? '').toBe('');
    expect(core?.versions.map((v) => [v.version, v.freshness])).toEqual([['v1', 'Current']]);
    const pods = core?.versions[0]?.resources.find((r) => r.resource === 'pods');
    expect(pods).toMatchObject({
      responseKind: { group: '', version: '', kind: 'Pod' },
      scope: 'Namespaced',
      singularResource: 'pod',
      shortNames: ['po'],
    });
    expect(pods?.subresources?.find((s) => s.subresource === 'log')).toEqual({
      subresource: 'log',
      responseKind: { group: '', version: '', kind: 'Pod' },
      verbs: ['get'],
    });
    expect(core?.versions[0]?.resources.find((r) => r.resource === 'namespaces')?.scope).toBe('Cluster');

    const groups = await aggregated('/apis');
    const legacyGroups = (await getJson('/apis')).body.groups as { name: string }[];
    expect(groups.map((g) => g.metadata.name)).toEqual(legacyGroups.map((g) => g.name));
    const apps = groups.find((g) => g.metadata.name === 'apps');
    expect(apps?.versions[0]?.resources.find((r) => r.resource === 'deployments')).toEqual({
      resource: 'deployments',
      responseKind: { group: '', version: '', kind: 'Deployment' },
      scope: 'Namespaced',
      singularResource: 'deployment',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['deploy'],
      subresources: [
        {
          subresource: 'status',
          responseKind: { group: '', version: '', kind: 'Deployment' },
          verbs: ['get', 'patch', 'update'],
        },
        {
          subresource: 'scale',
          responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
          verbs: ['get', 'patch', 'update'],
        },
      ],
    });
  });

  it('says in the aggregated form what each legacy APIResourceList says', async () => {
    const groups = [...(await aggregated('/api')), ...(await aggregated('/apis'))];
    for (const group of groups)
      for (const { version, resources } of group.versions) {
        const groupVersion = group.metadata.name ? `${group.metadata.name}/${version}` : version;
        const path = group.metadata.name ? `/apis/${groupVersion}` : `/api/${version}`;
        const legacy = (await getJson(path)).body.resources as {
          name: string;
          singularName: string;
          namespaced: boolean;
          kind: string;
          verbs: string[];
          shortNames?: string[];
          categories?: string[];
        }[];
        const fromAggregated = resources.flatMap((r) => [
          {
            name: r.resource,
            singularName: r.singularResource,
            namespaced: r.scope === 'Namespaced',
            kind: r.responseKind.kind,
            verbs: r.verbs,
            shortNames: r.shortNames,
            categories: r.categories,
          },
          ...(r.subresources ?? []).map((s) => ({ name: `${r.resource}/${s.subresource}`, verbs: s.verbs })),
        ]);
        const fromLegacy = legacy.map((r) =>
          r.name.includes('/')
            ? { name: r.name, verbs: r.verbs }
            : { ...r, shortNames: r.shortNames, categories: r.categories },
        );
        expect(fromAggregated.map((r) => r.name).sort(), groupVersion).toEqual(
          fromLegacy.map((r) => r.name).sort(),
        );
        for (const entry of fromAggregated)
          expect(entry, `${groupVersion} ${entry.name}`).toMatchObject(
            Object.fromEntries(
              Object.entries(fromLegacy.find((r) => r.name === entry.name) ?? {}).filter(
                ([, value]) => value !== undefined,
              ),
            ),
          );
      }
  });

  it('answers the legacy form to a plain Accept, to v2beta1 alone, and to a lower q for the aggregated form', async () => {
    const aggregatedType = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
    for (const accept of [
      undefined,
      'application/json',
      '*/*',
      'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json',
      `application/json, ${aggregatedType};q=0.5`,
      'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
    ]) {
      const api = await getJson('/api', accept);
      expect(api.body.kind, String(accept)).toBe('APIVersions');
      expect(api.contentType).toBe('application/json');
      expect((await getJson('/apis', accept)).body.kind, String(accept)).toBe('APIGroupList');
    }
    expect((await getJson('/apis', `application/json;q=0.9, ${aggregatedType}`)).body.kind).toBe(
      'APIGroupDiscoveryList',
    );
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
    const served = (await aggregated('/apis')).find((g) => g.metadata.name === 'argoproj.io');
    expect(served?.versions.map((v) => v.version)).toEqual(['v1alpha1']);
    expect(served?.versions[0]?.resources[0]).toMatchObject({
      resource: 'dummies',
      responseKind: { kind: 'Dummy' },
      scope: 'Namespaced',
      singularResource: 'dummy',
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
