import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import { listTrackedLiveObjects } from '../../../src/engine/index.js';
import { type ClusterCaches, createClusterCaches } from '../../../src/kube/cluster-caches.js';
import { createRetryingKubeCluster } from '../../../src/kube/retrying-cluster.js';
import { testApplication } from '../../support/test-application.js';

// A worker primes its live-state caches at start (src/main/start-worker.ts): every kind a sync looks for tracked
// objects in is listed and watched before the first sync, which then reads memory as the later ones do.

let sim: Simulator;
let dir: string;
let caches: ClusterCaches | undefined;

beforeAll(async () => {
  sim = await startSimulator({ speed: 20 });
  dir = mkdtempSync(path.join(tmpdir(), 'wavesync-prime-'));
});

afterAll(async () => {
  caches?.stop();
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('createClusterCaches().prime against the simulator', () => {
  it("lists and watches every kind a sync looks in once per cluster: the first sync's tracked objects are read from memory", async () => {
    const kubeconfig = path.join(dir, 'kubeconfig');
    await sim.writeKubeconfig(kubeconfig, { namespace: 'default' });
    sim.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    sim.put({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        namespace: 'shop',
        name: 'settings',
        annotations: { 'argocd.argoproj.io/tracking-id': 'shop:/ConfigMap:shop/settings' },
      },
      data: {},
    });
    caches = createClusterCaches({
      settings: { clusters: [], baseDir: dir },
      kubeconfig,
      createCluster: (kc) => createRetryingKubeCluster(kc),
    });
    const shop = testApplication({
      destination: { server: 'https://kubernetes.default.svc', namespace: 'shop' },
    });
    const web = testApplication({ name: 'web', destination: { server: 'https://kubernetes.default.svc' } });
    const cache = caches.cacheFor(shop);

    const mark = sim.requests.length;
    await caches.prime([shop, web]);
    const started = cache.stats().kinds;
    // Every primed kind listed (the watches' lists read in pages: `limit=`), its watch opened after.
    const listsSince = () =>
      sim.requests.slice(mark).filter((r) => r.method === 'GET' && r.path.includes('limit='));
    await expect.poll(() => listsSince().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(started);
    const lists = listsSince();
    const before = sim.requests.length;
    const tracked = await listTrackedLiveObjects(caches.clusterFor(shop), 'shop');

    expect(started).toBeGreaterThan(10);
    expect(tracked.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['ConfigMap/settings']);
    expect(sim.requests.slice(before)).toEqual([]);
    // One list per kind for both Applications (one cluster), not one per Application.
    expect(lists.filter((r) => r.path.startsWith('/api/v1/configmaps'))).toHaveLength(1);
    expect(lists.some((r) => r.path.startsWith('/api/v1/events'))).toBe(false);
  });
});
