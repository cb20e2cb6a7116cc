import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/domain/index.js';
import { servedCrd, sourced } from '../../builders/manifest-builders.js';
import { type Harness, startHarness, syncObjects } from './support/engine-harness.js';

let h: Harness;

// CRDs take 1 s of wall time (20 simulated s at speed 20) to become Established, as a busy API server may.
beforeAll(async () => {
  h = await startHarness(20, { crdEstablishSeconds: 20 });
});

afterAll(async () => {
  await h.stop();
});

const crd = servedCrd('order.example.com', 'Gizmo', 'gizmos');

describe('one wave on an API server that refuses what is not there yet (simulator)', () => {
  it('creates the Namespace, then its objects, then the CRD, waits until it is Established, then its custom resources', async () => {
    const namespace = 'order-team';
    const inNamespace = (o: Omit<KubeObject, 'metadata'>, name: string): KubeObject =>
      ({ ...o, metadata: { name, namespace } }) as KubeObject;
    const configMaps = Array.from({ length: 40 }, (_, i) =>
      inNamespace({ apiVersion: 'v1', kind: 'ConfigMap', data: { i: String(i) } }, `cm-${i}`),
    );
    const gizmos = Array.from({ length: 40 }, (_, i) =>
      inNamespace({ apiVersion: 'order.example.com/v1', kind: 'Gizmo', spec: { size: i } }, `gizmo-${i}`),
    );
    const objects = [
      ...gizmos,
      ...configMaps,
      crd,
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    ];
    const firstRequest = h.sim.requests.length;

    const { state } = await syncObjects(h, sourced(...objects), { namespace, application: 'order' });

    expect(state.message).toBe('successfully synced (all tasks run)');
    expect(state.phase).toBe('Succeeded');
    expect(state.syncResult.resources.filter((r) => r.status !== 'Synced')).toEqual([]);
    expect(h.sim.list('order.example.com/v1', 'Gizmo', namespace)).toHaveLength(40);
    const requests = h.sim.requests.slice(firstRequest);
    expect(requests.filter((r) => r.code === 404 && r.method !== 'GET')).toEqual([]);
    // The request log is in answer order: the last write of one kind run is answered before the next run's first.
    const writes = requests.filter((r) => r.method === 'PATCH' && !r.path.includes('dryRun'));
    const last = (part: string) => writes.findLastIndex((r) => r.path.includes(part));
    const first = (part: string) => writes.findIndex((r) => r.path.includes(part));
    const parts = [`/namespaces/${namespace}?`, '/configmaps/', '/customresourcedefinitions/', '/gizmos/'];
    for (const part of parts) expect(first(part), part).toBeGreaterThanOrEqual(0);
    expect(last(`/namespaces/${namespace}?`)).toBeLessThan(first('/configmaps/'));
    expect(last('/configmaps/')).toBeLessThan(first('/customresourcedefinitions/'));
    expect(last('/customresourcedefinitions/')).toBeLessThan(first('/gizmos/'));
  });
});
