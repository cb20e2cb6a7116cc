import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../index.js';
import { useSimulator } from '../testing/use-simulator.js';

const cluster = useSimulator({ speed: 50 });

const status = (o: KubeObject | undefined) => (o?.status ?? {}) as Record<string, unknown>;

describe('infrastructure and workload controllers', () => {
  it('binds a PVC to a new PV', async () => {
    await cluster.api.objects.create({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data', namespace: 'default' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } },
    } as never);
    const bound = await cluster.sim.waitFor(
      { apiVersion: 'v1', kind: 'PersistentVolumeClaim', name: 'data', namespace: 'default' },
      (p) => status(p).phase === 'Bound',
    );
    expect(status(bound)).toMatchObject({ accessModes: ['ReadWriteOnce'], capacity: { storage: '2Gi' } });
    expect((bound?.spec as { volumeName?: string } | undefined)?.volumeName).toBe(
      `pvc-${bound?.metadata.uid}`,
    );
  });

  it('gives a LoadBalancer Service and an Ingress a load-balancer ingress IP', async () => {
    await cluster.api.objects.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'lb', namespace: 'default' },
      spec: { type: 'LoadBalancer', selector: { app: 'x' }, ports: [{ port: 80 }] },
    } as never);
    const lb = await cluster.sim.waitFor(
      { apiVersion: 'v1', kind: 'Service', name: 'lb', namespace: 'default' },
      (s) => status(s).loadBalancer !== undefined,
    );
    expect(status(lb).loadBalancer).toMatchObject({
      ingress: [{ ip: expect.stringMatching(/^172\.18\.255\.\d+$/) }],
    });
    expect((lb?.spec as { clusterIP?: string } | undefined)?.clusterIP).toMatch(/^10\.96\./);
    await cluster.api.objects.create({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'ing', namespace: 'default' },
      spec: { rules: [{ host: 'a.example' }] },
    } as never);
    const ing = await cluster.sim.waitFor(
      { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: 'ing', namespace: 'default' },
      (s) => status(s).loadBalancer !== undefined,
    );
    expect(status(ing).loadBalancer).toMatchObject({ ingress: [{ ip: expect.any(String) }] });
  });

  it('marks an APIService Available', async () => {
    await cluster.api.objects.create({
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1beta1.metrics.k8s.io' },
      spec: { group: 'metrics.k8s.io', version: 'v1beta1', groupPriorityMinimum: 100, versionPriority: 100 },
    } as never);
    const svc = await cluster.sim.waitFor(
      { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', name: 'v1beta1.metrics.k8s.io' },
      (s) => status(s).conditions !== undefined,
    );
    expect(status(svc).conditions).toMatchObject([{ type: 'Available', status: 'True' }]);
  });

  it('rolls a StatefulSet out in order with its PVCs, and updates from the highest ordinal', async () => {
    const sts = (image: string) => ({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'default' },
      spec: {
        replicas: 2,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image }] } },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    });
    await cluster.api.objects.create(sts('postgres:16') as never);
    const ready = await cluster.sim.waitFor(
      { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', namespace: 'default' },
      (s) => status(s).readyReplicas === 2,
    );
    expect(status(ready)).toMatchObject({
      observedGeneration: 1,
      replicas: 2,
      currentReplicas: 2,
      updatedReplicas: 2,
      availableReplicas: 2,
    });
    expect(status(ready).currentRevision).toBe(status(ready).updateRevision);
    expect(
      cluster.sim.get({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        name: 'data-db-1',
        namespace: 'default',
      }),
    ).toBeDefined();
    const live = cluster.sim.get({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      name: 'db',
      namespace: 'default',
    });
    await cluster.api.objects.replace({ ...sts('postgres:17'), metadata: { ...live!.metadata } } as never);
    const rolled = await cluster.sim.waitFor(
      { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', namespace: 'default' },
      (s) =>
        status(s).observedGeneration === 2 &&
        status(s).updatedReplicas === 2 &&
        status(s).readyReplicas === 2,
    );
    expect(status(rolled).currentRevision).toBe(status(rolled).updateRevision);
  });

  it('runs one DaemonSet Pod on the node and reports it ready', async () => {
    await cluster.api.objects.create({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { containers: [{ name: 'a', image: 'agent:1' }] },
        },
      },
    } as never);
    const ds = await cluster.sim.waitFor(
      { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', namespace: 'default' },
      (d) => status(d).numberReady === 1,
    );
    expect(status(ds)).toMatchObject({
      desiredNumberScheduled: 1,
      currentNumberScheduled: 1,
      numberAvailable: 1,
      updatedNumberScheduled: 1,
      observedGeneration: 1,
      numberMisscheduled: 0,
    });
  });
});
