import { type KubernetesObject, PatchStrategy } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { failureOf } from '../testing/kube-clients.js';
import { useSimulator } from '../testing/use-simulator.js';

const cluster = useSimulator({ speed: 20 });

function configMap(
  name: string,
  data: Record<string, string> = { a: '1' },
  labels?: Record<string, string>,
): KubernetesObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) },
    data,
  } as KubernetesObject;
}

describe('CRUD', () => {
  it('creates with uid, resourceVersion and creationTimestamp; generateName gets a suffix', async () => {
    const created = await cluster.api.objects.create(configMap('crud-a'));
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(created.metadata?.resourceVersion)).toBeGreaterThan(1000);
    expect(created.metadata?.creationTimestamp).toBeInstanceOf(Date);
    const generated = await cluster.api.objects.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { generateName: 'gen-', namespace: 'default' },
    } as KubernetesObject);
    expect(generated.metadata?.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('answers AlreadyExists and NotFound in the real Status shape', async () => {
    await cluster.api.objects.create(configMap('crud-dup'));
    const dup = await failureOf(cluster.api.objects.create(configMap('crud-dup')));
    expect(dup.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "crud-dup" already exists',
      reason: 'AlreadyExists',
      details: { name: 'crud-dup', kind: 'configmaps' },
      code: 409,
    });
    const missing = await failureOf(
      cluster.api.objects.read({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'nope', namespace: 'default' },
      }),
    );
    expect(missing.code).toBe(404);
    expect(missing.status).toMatchObject({
      reason: 'NotFound',
      message: 'deployments.apps "nope" not found',
      details: { name: 'nope', group: 'apps', kind: 'deployments' },
    });
  });

  it('rejects a namespaced object in a missing namespace with namespaces "x" not found', async () => {
    const result = await failureOf(
      cluster.api.objects.create({ ...configMap('x'), metadata: { name: 'x', namespace: 'ghost' } }),
    );
    expect(result.code).toBe(404);
    expect(result.status).toMatchObject({
      message: 'namespaces "ghost" not found',
      reason: 'NotFound',
      details: { name: 'ghost', kind: 'namespaces' },
    });
    const ssa = await failureOf(
      cluster.api.objects.patch(
        { ...configMap('y'), metadata: { name: 'y', namespace: 'ghost' } },
        undefined,
        undefined,
        'mgr',
        true,
        PatchStrategy.ServerSideApply,
      ),
    );
    expect(ssa.status.message).toBe('namespaces "ghost" not found');
  });

  it('PUT with a stale resourceVersion is a 409 Conflict; generation bumps only on spec changes', async () => {
    // A NetworkPolicy has a generation and no controller writing to it, so nothing else moves its resourceVersion.
    const policy = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'gen', namespace: 'default' },
      spec: { podSelector: {} },
    };
    const created = await cluster.api.objects.create(policy as KubernetesObject);
    expect(created.metadata?.generation).toBe(1);
    const labelled = await cluster.api.objects.replace({
      ...created,
      metadata: { ...created.metadata, labels: { x: 'y' } },
    });
    expect(labelled.metadata?.generation).toBe(1);
    const changed = await cluster.api.objects.replace({
      ...labelled,
      spec: { podSelector: {}, policyTypes: ['Ingress'] },
    } as KubernetesObject);
    expect(changed.metadata?.generation).toBe(2);
    const stale = await failureOf(
      cluster.api.objects.replace({
        ...created,
        spec: { podSelector: {}, policyTypes: ['Egress'] },
      } as KubernetesObject),
    );
    expect(stale.code).toBe(409);
    expect(stale.status.message).toBe(
      'Operation cannot be fulfilled on networkpolicies.networking.k8s.io "gen": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it('answers a protobuf or CBOR body (kubectl create namespace) with 415 UnsupportedMediaType and stores nothing', async () => {
    for (const contentType of ['application/vnd.kubernetes.protobuf', 'application/cbor']) {
      const res = await fetch(`${cluster.sim.url}/api/v1/namespaces`, {
        method: 'POST',
        headers: { 'Content-Type': contentType },
        body: Buffer.concat([Buffer.from('k8s\0'), Buffer.from([0x0a, 0x0f, 0x0a, 0x02, 0x76, 0x31])]),
      });
      const status = (await res.json()) as { kind: string; reason: string; code: number; message: string };
      expect(res.status).toBe(415);
      expect(status).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType', code: 415 });
      expect(status.message).toContain(contentType);
    }
  });

  it('lists with label and field selectors, items without apiVersion/kind as the API serializes them', async () => {
    await cluster.api.objects.create(configMap('sel-1', {}, { tier: 'web', env: 'prod' }));
    await cluster.api.objects.create(configMap('sel-2', {}, { tier: 'db', env: 'prod' }));
    const res = await fetch(
      `${cluster.sim.url}/api/v1/namespaces/default/configmaps?labelSelector=${encodeURIComponent('env=prod,tier in (web,cache)')}`,
    );
    const list = (await res.json()) as {
      kind: string;
      items: { metadata: { name: string }; kind?: string }[];
      metadata: { resourceVersion: string };
    };
    expect(list.kind).toBe('ConfigMapList');
    expect(list.items.map((i) => i.metadata.name)).toEqual(['sel-1']);
    expect(list.items[0]?.kind).toBeUndefined();
    const byName = await cluster.api.objects.list(
      'v1',
      'ConfigMap',
      'default',
      undefined,
      undefined,
      undefined,
      'metadata.name=sel-2',
    );
    expect(byName.items.map((i) => i.metadata?.name)).toEqual(['sel-2']);
    const notDb = await cluster.api.objects.list(
      'v1',
      'ConfigMap',
      'default',
      undefined,
      undefined,
      undefined,
      undefined,
      'env=prod,tier!=db',
    );
    expect(notDb.items.map((i) => i.metadata?.name)).toEqual(['sel-1']);
  });

  it('dryRun=All validates and answers like a write but persists nothing', async () => {
    const before = cluster.sim.requests.length;
    const dry = await cluster.api.objects.create(configMap('dry'), undefined, 'All');
    expect(dry.metadata?.uid).toBeDefined();
    expect(
      cluster.sim.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'dry', namespace: 'default' }),
    ).toBeUndefined();
    await cluster.api.objects.patch(
      configMap('dry'),
      undefined,
      'All',
      'mgr',
      true,
      PatchStrategy.ServerSideApply,
    );
    expect(
      cluster.sim.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'dry', namespace: 'default' }),
    ).toBeUndefined();
    const invalid = await failureOf(cluster.api.objects.create(configMap('Bad_Name'), undefined, 'All'));
    expect(invalid.code).toBe(422);
    await cluster.api.objects.create(configMap('dry-del'));
    await cluster.api.objects.delete(configMap('dry-del'), undefined, 'All');
    expect(
      cluster.sim.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'dry-del', namespace: 'default' }),
    ).toBeDefined();
    expect(cluster.sim.requests.slice(before).filter((r) => r.path.includes('dryRun=All')).length).toBe(4);
  });

  it('deletes, and a second delete is 404', async () => {
    await cluster.api.objects.create(configMap('del'));
    await cluster.api.objects.delete(configMap('del'));
    expect(
      cluster.sim.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'del', namespace: 'default' }),
    ).toBeUndefined();
    expect((await failureOf(cluster.api.objects.delete(configMap('del')))).code).toBe(404);
  });
});

describe('patches', () => {
  const deploymentPath = '/apis/apps/v1/namespaces/default/deployments/patchme';
  async function patch(contentType: string, body: unknown) {
    const res = await fetch(`${cluster.sim.url}${deploymentPath}`, {
      method: 'PATCH',
      headers: { 'Content-Type': contentType },
      body: JSON.stringify(body),
    });
    return {
      code: res.status,
      body: (await res.json()) as {
        spec: { template: { spec: { containers: Record<string, unknown>[] } } };
        metadata: { labels?: Record<string, string> };
      },
    };
  }

  beforeAll(async () => {
    await cluster.api.objects.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'patchme', namespace: 'default', labels: { a: '1', b: '2' } },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'p' } },
        template: {
          metadata: { labels: { app: 'p' } },
          spec: {
            containers: [
              {
                name: 'web',
                image: 'nginx:1',
                env: [{ name: 'A', value: '1' }],
                ports: [{ containerPort: 80 }],
              },
              { name: 'side', image: 'busybox:1' },
            ],
          },
        },
      },
    });
  });

  it('strategic merge patch merges containers by name, env by name and ports by containerPort', async () => {
    const res = await patch('application/strategic-merge-patch+json', {
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: 'web',
                image: 'nginx:2',
                env: [{ name: 'B', value: '2' }],
                ports: [{ containerPort: 443 }],
              },
            ],
          },
        },
      },
    });
    expect(res.code).toBe(200);
    const [web, side] = res.body.spec.template.spec.containers;
    expect(web).toMatchObject({
      name: 'web',
      image: 'nginx:2',
      env: [
        { name: 'A', value: '1' },
        { name: 'B', value: '2' },
      ],
    });
    expect(((web?.ports ?? []) as { containerPort: number }[]).map((p) => p.containerPort)).toEqual([
      80, 443,
    ]);
    expect(side).toMatchObject({ name: 'side', image: 'busybox:1' });
    const removed = await patch('application/strategic-merge-patch+json', {
      spec: { template: { spec: { containers: [{ name: 'side', $patch: 'delete' }] } } },
    });
    expect(removed.body.spec.template.spec.containers.map((c) => c.name)).toEqual(['web']);
  });

  it('JSON merge patch replaces lists and deletes keys with null', async () => {
    const res = await patch('application/merge-patch+json', { metadata: { labels: { a: null, c: '3' } } });
    expect(res.body.metadata.labels).toEqual({ b: '2', c: '3' });
  });

  it('JSON patch applies operations and fails a test op with 422', async () => {
    const ok = await patch('application/json-patch+json', [
      { op: 'replace', path: '/metadata/labels/b', value: 'two' },
      { op: 'add', path: '/metadata/labels/d', value: '4' },
    ]);
    expect(ok.body.metadata.labels).toEqual({ b: 'two', c: '3', d: '4' });
    const bad = await patch('application/json-patch+json', [
      { op: 'test', path: '/metadata/labels/b', value: 'nope' },
    ]);
    expect(bad.code).toBe(422);
  });

  it('answers 415 UnsupportedMediaType for an unknown patch type', async () => {
    const res = await fetch(`${cluster.sim.url}${deploymentPath}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'text/plain' },
      body: '{}',
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType', code: 415 });
  });
});
