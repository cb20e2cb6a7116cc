/**
 * Resource views and actions over real @kubernetes/client-node against the simulator: the tree follows owner
 * references (Deployment → ReplicaSet → Pods) with health, unhealthy first; restart is applied with server-side apply
 * as its own field manager, and the Deployment controller rolls a new ReplicaSet; refusals write nothing.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import type { KubeObject } from '../../../src/domain/index.js';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';
import {
  createResourceActionCatalog,
  createResourceViews,
  ResourceActionError,
} from '../../../src/resource-actions/index.js';

let sim: Simulator;
let cluster: ReturnType<typeof createKubeCluster>;

function deployment(name: string, image: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: 'default',
      annotations: { 'argocd.argoproj.io/tracking-id': `shop:apps/Deployment:default/${name}` },
    },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image, command: ['sh', '-c', 'echo started; sleep 3600'] }] },
      },
    },
  };
}

const ref = (name: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name });
const available = (obj: KubeObject | undefined) =>
  (obj?.status as { availableReplicas?: number } | undefined)?.availableReplicas === 2;

beforeAll(async () => {
  sim = await startSimulator({ speed: 20 });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig({ namespace: 'default' }));
  cluster = createKubeCluster(kc, { watchTimeoutSeconds: 2 });
  await cluster.apply(deployment('web', 'nginx:1.27'), { dryRun: false, force: true });
  await sim.waitFor(ref('web'), available, 20_000);
});

afterAll(async () => {
  await sim.stop();
});

const views = () =>
  createResourceViews({ clusterFor: () => cluster, actions: createResourceActionCatalog({}) });

describe('resource views', () => {
  it('shows the tree by owner references, each line with health and the actions discovery offers', async () => {
    const lines = await views().tree('shop');
    const shape = lines.map((l) => [l.depth, l.object.kind, l.health?.status]);
    expect(shape[0]).toEqual([0, 'Deployment', 'Healthy']);
    expect(shape[1]).toEqual([1, 'ReplicaSet', 'Healthy']);
    expect(shape.slice(2)).toEqual([
      [2, 'Pod', 'Healthy'],
      [2, 'Pod', 'Healthy'],
    ]);
    expect(lines[0]?.actions.map((a) => a.name)).toEqual(['restart']);
    expect(lines[2]?.actions).toEqual([]);
  });

  it('restarts a Deployment: the restartedAt annotation is applied as wavesync-action and a new ReplicaSet rolls out', async () => {
    const outcome = await views().run({ application: 'shop', action: 'restart', target: 'deployment/web' });
    expect(outcome).toEqual({
      target: 'Deployment/web',
      namespace: 'default',
      changes: ['patched Deployment/web'],
    });
    const live = await cluster.get(ref('web'));
    const template = (
      (live as KubeObject).spec as { template: { metadata: { annotations?: Record<string, string> } } }
    ).template;
    expect(template.metadata.annotations?.['kubectl.kubernetes.io/restartedAt']).toMatch(/Z$/);
    const managers = ((live as KubeObject).metadata.managedFields as { manager: string }[]).map(
      (m) => m.manager,
    );
    expect(managers).toContain('wavesync-action');
    await sim.waitFor(
      { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' },
      (obj) =>
        available(obj) && (obj?.status as { updatedReplicas?: number } | undefined)?.updatedReplicas === 2,
      20_000,
    );
    const replicaSets = sim
      .list('apps/v1', 'ReplicaSet', 'default')
      .filter((rs) => rs.metadata.name?.startsWith('web-'));
    expect(replicaSets.length).toBe(2);
  });

  it("refuses, writing nothing, an action on a resource that is not the application's, or one not offered", async () => {
    const before = (await cluster.get(ref('web')))?.metadata.generation;
    await expect(
      views().run({ application: 'shop', action: 'restart', target: 'Deployment/other' }),
    ).rejects.toThrow(new ResourceActionError('shop has no resource Deployment/other'));
    await expect(
      views().run({ application: 'shop', action: 'scale', target: 'Deployment/web' }),
    ).rejects.toThrow('Deployment/web offers no action scale (it offers restart)');
    await expect(views().run({ application: 'shop', action: 'restart', target: 'web' })).rejects.toThrow(
      /Kind\/name/,
    );
    expect((await cluster.get(ref('web')))?.metadata.generation).toBe(before);
  });
});
