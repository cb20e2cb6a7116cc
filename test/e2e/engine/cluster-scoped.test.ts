/**
 * Cluster-scoped objects carry no namespace in the OperationState and the events (Argo CD's IsNamespacedOrUnknown:
 * the scope comes from discovery, or from the sync's own CRD while its kind is not served yet), while namespaced
 * ones carry the destination namespace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/domain/index.js';
import { obj, servedCrd, sourced } from '../../builders/manifest-builders.js';
import { type Harness, startHarness, syncObjects } from './support/engine-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.stop();
});

/** servedCrd with `spec.scope: Cluster`. */
function clusterCrd(group: string, kind: string, plural: string): KubeObject {
  const crd = servedCrd(group, kind, plural);
  return { ...crd, spec: { ...(crd.spec as object), scope: 'Cluster' } };
}

describe('cluster-scoped objects in the OperationState', () => {
  it('have namespace "" (Namespace, ClusterRole, CRD, a CR of a Cluster-scoped CRD of the same sync); namespaced ones the destination', async () => {
    const wave = (n: number) => ({ 'argocd.argoproj.io/sync-wave': String(n) });
    const { state, events } = await syncObjects(
      h,
      sourced(
        obj('v1', 'Namespace', 'scoped-shop'),
        { ...obj('rbac.authorization.k8s.io/v1', 'ClusterRole', 'reader'), rules: [] },
        clusterCrd('example.com', 'Tenant', 'tenants'),
        { ...obj('example.com/v1', 'Tenant', 'acme', wave(1)), spec: { plan: 'gold' } },
        { ...obj('v1', 'ConfigMap', 'settings', wave(1)), data: { a: '1' } },
      ),
      { namespace: 'scoped-shop', application: 'scoped' },
    );

    expect(state.phase).toBe('Succeeded');
    expect(
      state.syncResult.resources.map((r) => `${r.kind}/${r.name} ns=${JSON.stringify(r.namespace)}`).sort(),
    ).toEqual([
      'ClusterRole/reader ns=""',
      'ConfigMap/settings ns="scoped-shop"',
      'CustomResourceDefinition/tenants.example.com ns=""',
      'Namespace/scoped-shop ns=""',
      'Tenant/acme ns=""',
    ]);
    const eventNamespaces = new Set(
      events.flatMap((e) => ('task' in e && e.task && e.task.kind !== 'ConfigMap' ? [e.task.namespace] : [])),
    );
    expect([...eventNamespaces]).toEqual(['']);
  });
});
