import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import { ClusterError } from '../../../src/engine/cluster.js';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';

let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ speed: 20 });
});

afterAll(async () => {
  await sim.stop();
});

describe('a request on a kind discovery already knows (its path taken without an await)', () => {
  it('fails as a rejected ClusterError, as for a kind not yet known, when its path cannot be written', async () => {
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfig({ namespace: 'default' }));
    const cluster = createKubeCluster(kc);
    const ref = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name });
    // Not yet known: the path is written after discovery, inside the request.
    const unknown = await Promise.resolve()
      .then(() => cluster.get(ref('a\uD800')))
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(ClusterError);
    // Known now: the same request must fail the same way — a rejected promise, not a throw out of get().
    let result: Promise<unknown> | undefined;
    let thrown: unknown;
    try {
      result = cluster.get(ref('b\uD800'));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeUndefined();
    expect(await result?.catch((error: unknown) => error)).toBeInstanceOf(ClusterError);
  });
});
