/**
 * The cluster's own argocd-cm (health.clusterArgocdCm) against the API simulator over real client-node: its
 * resource.customizations health keys judge objects, below wavesync.yaml's argocdCm; its other keys are left
 * alone; no ConfigMap (or clusterArgocdCm: false) means wavesync.yaml's scripts alone.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import type { KubeObject } from '../../../src/domain/index.js';
import { scriptedHealthForCluster } from '../../../src/health-scripts/index.js';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';
import { HealthSettingsSchema } from '../../../src/settings/settings-schema.js';

let sim: Simulator;
let cluster: ReturnType<typeof createKubeCluster>;

beforeAll(async () => {
  sim = await startSimulator({ speed: 20 });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig({ namespace: 'default' }));
  cluster = createKubeCluster(kc, { watchTimeoutSeconds: 2 });
});

afterAll(async () => {
  await sim.stop();
});

const widget: KubeObject = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } };
const gadget: KubeObject = { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' } };
const judge = async (health: unknown, obj: KubeObject, notes: string[] = []) => {
  const scripted = await scriptedHealthForCluster(
    HealthSettingsSchema.parse(health),
    '/c/wavesync.yaml',
    cluster,
    {
      onNote: (n) => notes.push(n),
    },
  );
  return scripted ? scripted(obj, { hasOwnCheck: false }) : undefined;
};

describe("the cluster's argocd-cm", () => {
  it('none in the cluster: only wavesync.yaml judges', async () => {
    expect(await judge({}, widget)).toBeUndefined();
  });

  it("its health keys judge, below wavesync.yaml's; its other keys are Argo CD's and left alone", async () => {
    const apply = (obj: KubeObject) => cluster.apply(obj, { dryRun: false, force: true });
    await apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'argocd' } });
    await apply({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'argocd-cm', namespace: 'argocd' },
      data: {
        url: 'https://argocd.example.com',
        'dex.config': 'connectors: []',
        'resource.customizations.health.example.com_Widget':
          'return { status = "Degraded", message = "judged by the cluster" }',
        'resource.customizations': [
          'example.com/Gadget:',
          '  health.lua: |',
          '    return { status = "Progressing", message = "gadget by the cluster" }',
        ].join('\n'),
      },
    });
    expect(await judge({}, widget)).toEqual({ status: 'Degraded', message: 'judged by the cluster' });
    expect(await judge({}, gadget)).toEqual({ status: 'Progressing', message: 'gadget by the cluster' });
    const ours = {
      argocdCm: { 'resource.customizations.health.example.com_Gadget': 'return { status = "Healthy" }' },
    };
    expect(await judge(ours, gadget)).toEqual({ status: 'Healthy', message: '' });
    expect(await judge(ours, widget)).toEqual({ status: 'Degraded', message: 'judged by the cluster' });
    expect(await judge({ clusterArgocdCm: false }, widget)).toBeUndefined();
    expect(await judge({ clusterArgocdCm: { namespace: 'elsewhere' } }, widget)).toBeUndefined();
  });
});
