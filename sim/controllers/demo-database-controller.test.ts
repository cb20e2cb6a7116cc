import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { KubeObject } from '../index.js';
import { useSimulator } from '../testing/use-simulator.js';
import type { Condition } from './controller-context.js';
import { DATABASE_PROVISION_SECONDS } from './demo-database-controller.js';

// ×20: the 60 simulated seconds of provisioning take 3 s, a wide window to see Provisioning in on a loaded machine.
const SPEED = 20;
const cluster = useSimulator({ speed: SPEED });
// A CRD that stays un-Established for the whole test (an hour): what is refused before that is not a race.
const pending = useSimulator({ crdEstablishSeconds: 3600 });

const ORDERS = path.resolve(import.meta.dirname, '../../examples/manifests/orders');
const DATABASES = '/apis/demo.wavesync.dev/v1alpha1/namespaces/default/databases';
const REF = { apiVersion: 'demo.wavesync.dev/v1alpha1', kind: 'Database', namespace: 'default' };

const ready = (o: KubeObject | undefined) =>
  ((o?.status as { conditions?: Condition[] } | undefined)?.conditions ?? []).find((c) => c.type === 'Ready');

async function post(url: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function crd(): Promise<KubeObject> {
  return parse(await readFile(path.join(ORDERS, 'database-crd.yaml'), 'utf8')) as KubeObject;
}

function database(name: string): KubeObject {
  return {
    apiVersion: REF.apiVersion,
    kind: 'Database',
    metadata: { name, namespace: 'default' },
    spec: { engine: 'postgres', version: '16', storage: '10Gi' },
  };
}

describe('sim/controllers/demo-database-controller', () => {
  it('refuses a Database while its CRD is not Established, as kube-apiserver does not serve the kind yet', async () => {
    pending.sim.put(await crd());
    const early = await post(`${pending.sim.url}${DATABASES}`, database('early'));
    expect(early.status).toBe(404);
    expect(early.body).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
    expect(pending.sim.get({ ...REF, name: 'early' })).toBeUndefined();
  });

  it('provisions a Database once its CRD is Established: Ready=False Provisioning, later Ready=True', async () => {
    cluster.sim.put(await crd());
    await cluster.sim.waitForEstablished('databases.demo.wavesync.dev');
    const started = Date.now();
    const created = await post(`${cluster.sim.url}${DATABASES}`, database('orders-db'));
    expect(created.status).toBe(201);
    const provisioning = cluster.sim.get({ ...REF, name: 'orders-db' });
    expect(provisioning?.status).toMatchObject({ observedGeneration: 1 });
    expect(ready(provisioning)).toMatchObject({
      status: 'False',
      reason: 'Provisioning',
      message: 'Provisioning postgres 16 with 10Gi of storage',
    });

    const done = await cluster.sim.waitFor({ ...REF, name: 'orders-db' }, (o) => ready(o)?.status === 'True');
    expect(Date.now() - started).toBeGreaterThanOrEqual((DATABASE_PROVISION_SECONDS * 1000) / SPEED - 20);
    expect(ready(done)).toMatchObject({
      reason: 'Available',
      message: 'postgres 16 is ready at orders-db.default.svc:5432',
    });
    expect(done?.status).toMatchObject({ observedGeneration: 1, endpoint: 'orders-db.default.svc:5432' });
    expect(cluster.sim.events('default', 'orders-db').map((e) => e.reason)).toEqual([
      'Provisioning',
      'Available',
    ]);
  });

  it('provisions a changed spec again: the older generation never turns Ready', async () => {
    cluster.sim.put(database('billing-db'));
    const live = cluster.sim.get({ ...REF, name: 'billing-db' })!;
    const changed = cluster.sim.put({
      ...live,
      spec: { engine: 'postgres', version: '17', storage: '10Gi' },
    });
    expect(changed.metadata.generation).toBe(2);
    expect(cluster.sim.get({ ...REF, name: 'billing-db' })?.status).toMatchObject({ observedGeneration: 2 });
    expect(ready(cluster.sim.get({ ...REF, name: 'billing-db' }))?.message).toBe(
      'Provisioning postgres 17 with 10Gi of storage',
    );

    // The first generation's timer fires before the second's: once Ready, both have.
    const done = await cluster.sim.waitFor(
      { ...REF, name: 'billing-db' },
      (o) => ready(o)?.status === 'True',
    );
    expect(ready(done)?.message).toBe('postgres 17 is ready at billing-db.default.svc:5432');
    expect(cluster.sim.events('default', 'billing-db').map((e) => e.message)).toEqual([
      'Provisioning postgres 16',
      'Provisioning postgres 17',
      'postgres 17 is ready at billing-db.default.svc:5432',
    ]);
  });
});
