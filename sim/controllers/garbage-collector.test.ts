import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { failureOf } from '../testing/kube-clients.js';
import { useSimulator } from '../testing/use-simulator.js';

const cluster = useSimulator({ speed: 50 });

const cmRef = (name: string, namespace = 'default') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  name,
  namespace,
});

async function ownerWithDependent(owner: string, dependent: string) {
  const created = await cluster.api.objects.create({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: owner, namespace: 'default' },
  } as KubernetesObject);
  await cluster.api.objects.create({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: dependent,
      namespace: 'default',
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          name: owner,
          uid: created.metadata?.uid ?? '',
          blockOwnerDeletion: true,
        },
      ],
    },
  } as never);
}

describe('finalizers and garbage collection', () => {
  it('only marks an object with finalizers (deletionTimestamp) and removes it when they are cleared', async () => {
    await cluster.api.objects.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'held', namespace: 'default', finalizers: ['example.com/block'] },
    });
    const res = await fetch(`${cluster.sim.url}/api/v1/namespaces/default/configmaps/held`, {
      method: 'DELETE',
    });
    expect(res.status).toBe(202);
    const marked = cluster.sim.get(cmRef('held'));
    expect(marked?.metadata.deletionTimestamp).toBeDefined();
    const patch = await fetch(`${cluster.sim.url}/api/v1/namespaces/default/configmaps/held`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json-patch+json' },
      body: JSON.stringify([{ op: 'remove', path: '/metadata/finalizers' }]),
    });
    expect(patch.status).toBe(200);
    expect(cluster.sim.get(cmRef('held'))).toBeUndefined();
  });

  it('background deletion removes dependents after their owner', async () => {
    await ownerWithDependent('bg-owner', 'bg-dep');
    await cluster.api.objects.delete(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bg-owner', namespace: 'default' } },
      undefined,
      undefined,
      undefined,
      undefined,
      'Background',
    );
    expect(cluster.sim.get(cmRef('bg-owner'))).toBeUndefined();
    await cluster.sim.waitFor(cmRef('bg-dep'), (o) => o === undefined);
  });

  it('foreground deletion keeps the owner (with foregroundDeletion) until dependents are gone', async () => {
    await ownerWithDependent('fg-owner', 'fg-dep');
    await cluster.api.objects.delete(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fg-owner', namespace: 'default' } },
      undefined,
      undefined,
      undefined,
      undefined,
      'Foreground',
    );
    const marked = cluster.sim.get(cmRef('fg-owner'));
    expect(marked?.metadata.finalizers).toEqual(['foregroundDeletion']);
    await cluster.sim.waitFor(cmRef('fg-owner'), (o) => o === undefined);
    expect(cluster.sim.get(cmRef('fg-dep'))).toBeUndefined();
  });

  it('orphan deletion keeps dependents without the owner reference', async () => {
    await ownerWithDependent('or-owner', 'or-dep');
    await cluster.api.objects.delete(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'or-owner', namespace: 'default' } },
      undefined,
      undefined,
      undefined,
      undefined,
      'Orphan',
    );
    await cluster.sim.waitFor(cmRef('or-owner'), (o) => o === undefined);
    expect(cluster.sim.get(cmRef('or-dep'))?.metadata.ownerReferences).toBeUndefined();
  });

  it('deleting a Deployment cascades to its ReplicaSets and Pods', async () => {
    await cluster.api.objects.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'cascade', namespace: 'default' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'cascade' } },
        template: {
          metadata: { labels: { app: 'cascade' } },
          spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
        },
      },
    } as never);
    await cluster.sim.waitFor(
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'cascade', namespace: 'default' },
      (d) => (d?.status as { readyReplicas?: number })?.readyReplicas === 1,
    );
    await cluster.api.objects.delete(
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'cascade', namespace: 'default' } },
      undefined,
      undefined,
      undefined,
      undefined,
      'Foreground',
    );
    await cluster.sim.waitFor(
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'cascade', namespace: 'default' },
      (d) => d === undefined,
    );
    expect(
      cluster.sim.list('v1', 'Pod', 'default').filter((p) => p.metadata.labels?.app === 'cascade'),
    ).toEqual([]);
    expect(
      cluster.sim
        .list('apps/v1', 'ReplicaSet', 'default')
        .filter((r) => r.metadata.labels?.app === 'cascade'),
    ).toEqual([]);
  });

  it('a namespace deletion cascades to its content, refuses new content while Terminating, then goes', async () => {
    await cluster.api.objects.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'doomed' } });
    await cluster.sim.waitFor(
      { apiVersion: 'v1', kind: 'ServiceAccount', name: 'default', namespace: 'doomed' },
      (o) => o !== undefined,
    );
    await cluster.api.objects.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'doomed', finalizers: ['example.com/hold'] },
    });
    await cluster.api.objects.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'doomed' } });
    const terminating = await cluster.sim.waitFor(
      { apiVersion: 'v1', kind: 'Namespace', name: 'doomed' },
      (n) => (n?.status as { phase?: string })?.phase === 'Terminating',
    );
    expect(terminating?.metadata.deletionTimestamp).toBeDefined();
    const refused = await failureOf(
      cluster.api.objects.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'late', namespace: 'doomed' },
      }),
    );
    expect(refused.code).toBe(403);
    expect(refused.status.message).toBe(
      'configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated',
    );
    await cluster.sim.waitFor(
      { apiVersion: 'v1', kind: 'ServiceAccount', name: 'default', namespace: 'doomed' },
      (o) => o === undefined,
    );
    expect(cluster.sim.get({ apiVersion: 'v1', kind: 'Namespace', name: 'doomed' })).toBeDefined();
    const held = cluster.sim.get(cmRef('c', 'doomed'));
    cluster.sim.put({ ...held!, metadata: { ...held!.metadata, finalizers: [] } });
    await cluster.sim.waitFor(
      { apiVersion: 'v1', kind: 'Namespace', name: 'doomed' },
      (n) => n === undefined,
    );
  });
});
