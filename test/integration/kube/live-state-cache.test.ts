import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import type { KubeObject } from '../../../src/domain/index.js';
import { ClusterError, type ObjectChange } from '../../../src/engine/index.js';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';
import { createLiveStateCache, type LiveStateCache } from '../../../src/kube/live-state-cache.js';

let sim: Simulator;
let kc: KubeConfig;
let cache: LiveStateCache | undefined;

beforeAll(async () => {
  // A short watch history, as a busy etcd compacts: a watch that resumes after more changes than that gets 410.
  sim = await startSimulator({ speed: 1, watchHistory: 5 });
  kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig({ namespace: 'default' }));
});

afterEach(() => {
  cache?.stop();
  sim.faults.rate = 0;
});

afterAll(async () => {
  await sim.stop();
});

const configMap = (namespace: string, name: string, data: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace, name },
  data,
});
const cmQuery = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'lsc' };
/** A list of every ConfigMap (read in pages: `?limit=500`, then `&continue=…`), not a watch. */
const CONFIGMAP_LIST = /^\/api\/v1\/configmaps(\?limit=\d+(&continue=[^&]+)?)?$/;
/** A list of ConfigMaps, of every namespace or of one (as a read through lists), not a watch. */
const ANY_CONFIGMAP_LIST = /^\/api\/v1\/(namespaces\/[^/]+\/)?configmaps(\?limit=\d+(&continue=[^&]+)?)?$/;
const requestsTo = (pattern: RegExp, from: number) =>
  sim.requests.slice(from).filter((r) => pattern.test(r.path) && r.method === 'GET');

describe('src/kube/live-state-cache against the simulator', () => {
  it('reads memory once a kind is listed (no request per read), watch() shares the one watch, and a 410 Gone on a resumed watch relists', async () => {
    sim.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'lsc' } });
    sim.put(configMap('lsc', 'keep', { v: '1' }));
    sim.put(configMap('lsc', 'gone', { v: '1' }));
    cache = createLiveStateCache({ cluster: createKubeCluster(kc, { watchTimeoutSeconds: 1 }) });
    const heard: ObjectChange[] = [];
    cache.onChange((change) => heard.push(change));
    const subscribed: string[] = [];
    const sub = cache.watch([cmQuery], (c) => subscribed.push(`${c.type} ${c.object.metadata.name}`));

    await expect.poll(async () => cache!.stats().objects, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
    const before = sim.requests.length;
    for (let i = 0; i < 20; i++) await cache.list(cmQuery);
    const keep = await cache.get({ ...cmQuery, name: 'keep' });
    expect(sim.requests.length - before).toBe(0);
    expect(keep?.data).toEqual({ v: '1' });
    expect(keep?.metadata.managedFields).toBeUndefined();

    // More changes to another kind than the history keeps: the ConfigMap watch resumes from a resourceVersion the
    // simulator no longer has (410 Gone, as kube-apiserver answers), and the cache lists the kind again.
    const mark = sim.requests.length;
    sim.delete({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'lsc', name: 'gone' });
    for (let i = 0; i < 8; i++)
      sim.put({ apiVersion: 'v1', kind: 'Secret', metadata: { namespace: 'lsc', name: `s${i}` }, data: {} });
    // A list (not a watch) of the kind: only a 410 or an error relists; a watch's normal timeout resumes.
    await expect.poll(() => requestsTo(CONFIGMAP_LIST, mark), { timeout: 8000 }).not.toHaveLength(0);
    sim.put(configMap('lsc', 'after', { v: '2' }));
    await expect
      .poll(async () => (await cache!.list(cmQuery)).map((o) => o.metadata.name).sort(), { timeout: 8000 })
      .toEqual(['after', 'keep']);
    expect(heard.some((c) => c.object.metadata.name === 'after')).toBe(true);
    expect(subscribed).toContain('ADDED after');
    // The relist came after the watch that got the 410, not at once: restarts back off (200 ms doubling, jittered).
    const after = sim.requests.slice(mark).filter((r) => r.path.startsWith('/api/v1/configmaps'));
    const relist = after.findIndex((r) => CONFIGMAP_LIST.test(r.path));
    const gone = after[relist - 1]!;
    expect(gone.path).toContain('watch=true');
    expect(after[relist]!.at - gone.at).toBeGreaterThanOrEqual(100);
    sub.stop();
  });

  it('a read right after our own apply is never older than the apply answer', async () => {
    sim.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'raw' } });
    sim.put(configMap('raw', 'cm', { v: '0' }));
    cache = createLiveStateCache({ cluster: createKubeCluster(kc) });
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'raw', name: 'cm' };
    await cache.list({ ...ref, namespace: 'raw' });
    await expect.poll(() => cache!.stats().objects, { timeout: 5000 }).toBeGreaterThan(0);

    for (let i = 1; i <= 20; i++) {
      const answer = await cache.apply(configMap('raw', 'cm', { v: String(i) }), {
        dryRun: false,
        force: true,
      });
      const read = await cache.get(ref);
      expect(Number(read?.metadata.resourceVersion)).toBeGreaterThanOrEqual(
        Number(answer.metadata.resourceVersion),
      );
      expect(read?.data).toEqual({ v: String(i) });
    }
    const created = await cache.apply(configMap('raw', `new-${Date.now()}`, { v: 'x' }), {
      dryRun: false,
      force: true,
    });
    const listed = await cache.list({ ...ref, namespace: 'raw' });
    expect(listed.map((o) => o.metadata.name)).toContain(created.metadata.name);
  });
  it("lists while a kind's watch is down wait for its one relist (1 LIST for 20 lists); in an outage they fail with the API server's error; then the cache serves again", async () => {
    sim.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'down' } });
    sim.put(configMap('down', 'a', { v: '1' }));
    sim.put(configMap('down', 'b', { v: '1' }));
    const q = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'down' };
    cache = createLiveStateCache({ cluster: createKubeCluster(kc, { watchTimeoutSeconds: 1 }) });
    const names = (objects: KubeObject[]) => objects.map((o) => o.metadata.name).sort();
    let phase: 'up' | 'fault' | 'outage' = 'up';
    let mark = 0;
    let reads: Promise<KubeObject[]>[] = [];
    let outageHeard = false;
    const sub = cache.watch([q], () => {}, {
      onError: () => {
        if (phase === 'outage') outageHeard = true;
        if (phase !== 'fault') return;
        // The ConfigMap watch failed (its re-open answered with a fault): the server is fine again, and 20
        // lists of the kind come while its watch is down, as a drift cycle's comparisons do.
        phase = 'up';
        sim.faults.rate = 0;
        mark = sim.requests.length;
        reads = Array.from({ length: 20 }, () => cache!.list(q));
      },
    });
    expect(names(await cache.list(q))).toEqual(['a', 'b']);

    // One fault: the watch's next re-open (every second here) fails.
    phase = 'fault';
    sim.faults.rate = 1;
    await expect.poll(() => reads.length, { timeout: 8000 }).toBe(20);
    for (const read of await Promise.all(reads)) expect(names(read)).toEqual(['a', 'b']);
    // Reading through, each of the 20 listed the whole kind.
    expect(requestsTo(ANY_CONFIGMAP_LIST, mark)).toHaveLength(1);

    // An outage: every request fails. Lists wait for the one relist and fail with its error, the API server's.
    phase = 'outage';
    sim.faults.rate = 1;
    await expect.poll(() => outageHeard, { timeout: 8000 }).toBe(true);
    const from = sim.requests.length;
    const failed = await Promise.all(
      Array.from({ length: 10 }, () =>
        cache!.list(q).then(
          () => undefined,
          (error: unknown) => error,
        ),
      ),
    );
    const lists = requestsTo(ANY_CONFIGMAP_LIST, from).length;
    expect(failed[0]).toBeInstanceOf(ClusterError);
    expect((failed[0] as ClusterError).transient).toBe(true);
    for (const error of failed) expect(error).toBe(failed[0]);
    // One relist (the adapter tries each GET up to 6 times), not 10 lists of 6 tries.
    expect(lists).toBeGreaterThanOrEqual(1);
    expect(lists).toBeLessThanOrEqual(6);

    // Recovery: the next list relists, and the copy is read from memory after it.
    phase = 'up';
    sim.faults.rate = 0;
    sim.put(configMap('down', 'c', { v: '1' }));
    expect(names(await cache.list(q))).toEqual(['a', 'b', 'c']);
    const after = sim.requests.length;
    expect(names(await cache.list(q))).toEqual(['a', 'b', 'c']);
    expect(requestsTo(ANY_CONFIGMAP_LIST, after)).toHaveLength(0);
    sub.stop();
  });
});
