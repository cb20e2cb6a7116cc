/**
 * What one drift cycle asks of the API server, counted by the simulator (every request it answers): APPS
 * Applications (default 5) of OBJECTS ConfigMaps each (default 5), synced and unchanged. A cycle reads each
 * Application's tracked live objects (listTrackedLiveObjects, what src/drift compares) — before: straight from the
 * cluster adapter (discovery + one list of every kind per Application); after: from the live-state cache
 * (src/kube/live-state-cache.ts: one list+watch per kind, shared). The first cycle warms up (the cache lists and
 * opens its watches); cycles 2–4 are counted. Then an object is edited out of band, and the time until the
 * watch-driven check (src/drift/live-state-caches.ts) sees the difference is measured, 5 times.
 * Results go to "Drift cycle" in BENCHMARKS.md. Run: `npx tsx bench/drift-cycle.bench.ts`.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { startSimulator } from '../sim/index.js';
import { Annotations, type Application, TRACKING_LABEL } from '../src/domain/index.js';
import { createLiveStateCaches } from '../src/drift/index.js';
import { listTrackedLiveObjects } from '../src/engine/index.js';
import { createLiveStateCache } from '../src/kube/live-state-cache.js';
import { createRetryingKubeCluster } from '../src/kube/retrying-cluster.js';

const APPS = Number(process.env.APPS ?? 5);
const OBJECTS = Number(process.env.OBJECTS ?? 5);
const names = Array.from({ length: APPS }, (_, i) => `app-${i}`);

const sim = await startSimulator({ speed: 1 });
const kc = new KubeConfig();
kc.loadFromString(sim.kubeconfig({ namespace: 'default' }));
for (const app of names) {
  sim.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: app } });
  for (let j = 0; j < OBJECTS; j++) {
    const name = `cm-${j}`;
    sim.put({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name,
        namespace: app,
        labels: { [TRACKING_LABEL]: app },
        annotations: { [Annotations.trackingId]: `${app}:/ConfigMap:${app}/${name}` },
      },
      data: { mode: 'steady' },
    });
  }
}
const application = (name: string) => ({ name }) as Application;

async function cycle(read: (app: string) => Promise<number>): Promise<{ requests: number; objects: number }> {
  const before = sim.requests.length;
  let objects = 0;
  for (const app of names) objects += await read(app);
  return { requests: sim.requests.length - before, objects };
}

async function counted(label: string, read: (app: string) => Promise<number>): Promise<void> {
  await cycle(read); // warm-up
  const runs = [await cycle(read), await cycle(read), await cycle(read)];
  const gets = runs.map((r) => r.requests);
  console.log(`${label}: requests per cycle ${gets.join(', ')} · objects found ${runs[0]!.objects}`);
}

try {
  const direct = createRetryingKubeCluster(kc);
  await counted('before (adapter)', async (app) => (await listTrackedLiveObjects(direct, app)).length);

  let lastCheck: ((at: number) => void) | undefined;
  const cache = createLiveStateCache({ cluster: createRetryingKubeCluster(kc) });
  const caches = createLiveStateCaches({
    clusterFor: () => cache,
    check: async () => {
      const live = await listTrackedLiveObjects(cache, 'app-0');
      if (live.some((o) => (o.data as { mode?: string } | undefined)?.mode === 'edited'))
        lastCheck?.(Date.now());
    },
  });
  caches.watchChangesOf(application('app-0'));
  await counted('after (live-state cache)', async (app) => (await listTrackedLiveObjects(cache, app)).length);
  console.log(`cache holds ${JSON.stringify(cache.stats())}`);

  const latencies: number[] = [];
  for (let i = 0; i < 5; i++) {
    const seen = new Promise<number>((resolve) => {
      lastCheck = resolve;
    });
    const editedAt = Date.now();
    const obj = sim.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'app-0', name: 'cm-0' })!;
    sim.put({ ...obj, data: { mode: 'edited' } });
    latencies.push((await seen) - editedAt);
    sim.put({ ...obj, data: { mode: 'steady' } });
    await new Promise((resolve) => setTimeout(resolve, 1500));
  }
  console.log(`out-of-band edit → check sees it: ${latencies.map((ms) => `${ms} ms`).join(', ')}`);
  caches.stop();
  cache.stop();
} finally {
  await sim.stop();
}
