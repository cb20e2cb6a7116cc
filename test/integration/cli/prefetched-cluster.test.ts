/**
 * withPrefetchedTracking against the simulator: the tracked-object reads start at once, the engine's first identical
 * calls get those answers (no second request), later calls ask again, and a prefetch that fails fails the call that
 * takes it, not the process.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import { withPrefetchedTracking } from '../../../src/cli/prefetched-cluster.js';
import { listTrackedLiveObjects } from '../../../src/engine/index.js';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';

let sim: Simulator;
let kc: KubeConfig;

beforeAll(async () => {
  sim = await startSimulator({ speed: 20 });
  kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig({ namespace: 'default' }));
});

afterAll(async () => {
  await sim.stop();
});

/** GET requests to the simulator since `from` (an index into its request log), by path without the query. */
function getsSince(from: number): string[] {
  return sim.requests
    .slice(from)
    .filter((r) => r.method === 'GET')
    .map((r) => r.path.split('?')[0]!);
}

describe('withPrefetchedTracking', () => {
  it('reads what listTrackedLiveObjects reads before it is called, and only once', async () => {
    const cluster = createKubeCluster(kc);
    await cluster.apply(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'mine',
          namespace: 'default',
          annotations: { 'argocd.argoproj.io/tracking-id': 'app:/ConfigMap:default/mine' },
        },
      },
      { force: true, dryRun: false },
    );
    const from = sim.requests.length;
    const prefetching = withPrefetchedTracking(cluster, 'app');
    // Started before anyone asks: discovery, then one list per tracked kind in all namespaces.
    await expect.poll(() => getsSince(from).includes('/api/v1/configmaps')).toBe(true);

    const tracked = await listTrackedLiveObjects(prefetching, 'app');

    expect(tracked.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['ConfigMap/mine']);
    const gets = getsSince(from);
    expect(gets.filter((p, i) => gets.indexOf(p) !== i)).toEqual([]); // each read once, discovery too
    await listTrackedLiveObjects(prefetching, 'app');
    expect(getsSince(from).filter((p) => p === '/api/v1/configmaps')).toHaveLength(2); // asked again later
  });

  it("tells the engine's list the version the prefetched list was read at, with every object of the kind", async () => {
    const cluster = createKubeCluster(kc);
    const untracked = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'not-mine', namespace: 'default' },
    };
    await cluster.apply(untracked, { force: true, dryRun: false });
    const from = sim.requests.length;
    const prefetching = withPrefetchedTracking(cluster, 'app');
    await prefetching.listKinds();
    let version: string | undefined;
    const objects = await prefetching.list({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: '',
      trackedBy: 'app',
      listedAt: (v) => {
        version = v;
      },
    });
    expect(getsSince(from).filter((p) => p === '/api/v1/configmaps')).toHaveLength(1); // the prefetched answer
    expect(Number(version)).toBeGreaterThan(0);
    expect(objects.map((o) => o.metadata.name)).toContain('not-mine');
  });

  it('fails the call that takes a failed prefetch with its error, and no unhandled rejection before', async () => {
    const broken = new KubeConfig();
    broken.loadFromString(
      sim.kubeconfig({ namespace: 'default' }).replace(/server: \S+/, 'server: http://127.0.0.1:1'),
    );
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const prefetching = withPrefetchedTracking(
        createKubeCluster(broken, { requestTimeoutMs: 1000 }),
        'app',
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      await expect(prefetching.listKinds()).rejects.toThrow(/ECONNREFUSED|connect/);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  }, 30_000);
});
