import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import type { SyncEvent } from '../../../src/domain/index.js';
import { runOperation } from '../../../src/engine/index.js';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';
import { createLiveStateCache, type LiveStateCache } from '../../../src/kube/live-state-cache.js';
import { obj, sourced } from '../../builders/manifest-builders.js';

// The worker runs the engine over the process's live-state cache: the engine's reads come from memory and its
// waits (a wave's resources becoming Healthy) are woken by the cache's shared watch, not by polling GETs.

let sim: Simulator;
let cache: LiveStateCache;

beforeAll(async () => {
  sim = await startSimulator({ speed: 20 });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig({ namespace: 'default' }));
  cache = createLiveStateCache({ cluster: createKubeCluster(kc, { watchTimeoutSeconds: 5 }) });
});

afterAll(async () => {
  cache.stop();
  await sim.stop();
});

const deployment = (name: string) =>
  obj(
    'apps/v1',
    'Deployment',
    name,
    {},
    {
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
        },
      },
    },
  );

async function sync(application: string, name: string) {
  const events: SyncEvent[] = [];
  const state = await runOperation({
    application,
    targets: sourced(deployment(name)),
    namespace: 'waits',
    revision: 'r1',
    operation: { prune: false, dryRun: false, syncOptions: ['CreateNamespace=true'] },
    cluster: cache,
    reporter: { report: async (e) => void events.push(e) },
    // A long polling fallback: a wait that finishes sooner was woken by a watch event.
    options: { pollIntervalMs: 30_000, healthTimeoutMs: 20_000 },
  });
  return { state, events };
}

describe('the engine over the live-state cache (src/kube/live-state-cache.ts) against the simulator', () => {
  it('waits for a Deployment to become Healthy on the shared watch: no GET of the object, no new watch request, done long before the polling fallback', async () => {
    await sync('warm', 'first'); // warms the kinds this sync reads
    const mark = sim.requests.length;
    const started = Date.now();

    const { state } = await sync('web', 'web');

    const requests = sim.requests.slice(mark);
    const gets = requests.filter((r) => r.method === 'GET' && /\/deployments\/web$/.test(r.path));
    // The engine's own watches and lists would be of the namespace: the cache's are cluster-wide.
    const ofNamespace = requests.filter(
      (r) => r.method === 'GET' && /\/namespaces\/waits\/[a-z]+(\?|$)/.test(r.path),
    );
    expect(state.phase).toBe('Succeeded');
    expect(state.health?.status).toBe('Healthy');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(gets).toEqual([]);
    expect(ofNamespace).toEqual([]);
    expect(requests.filter((r) => r.method === 'PATCH' && r.path.includes('/deployments/web'))).not.toEqual(
      [],
    );
  });
});
