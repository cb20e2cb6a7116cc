/**
 * The cluster's own argocd-cm (health.clusterArgocdCm) against the API simulator over real client-node: its
 * resource.customizations health keys judge objects, below wavesync.yaml's argocdCm; its other keys are left
 * alone; no ConfigMap (or clusterArgocdCm: false) means wavesync.yaml's scripts alone.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import { syncManifests } from '../../../src/cli/sync-manifests.js';
import type { Application, KubeObject } from '../../../src/domain/index.js';
import { type DegradedHealthNoticeDeps, noticeDegradedHealth } from '../../../src/drift/index.js';
import { scriptedHealthForCluster, scriptedHealthSource } from '../../../src/health-scripts/index.js';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';
import { createResourceActionCatalog, createResourceViews } from '../../../src/resource-actions/index.js';
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

/**
 * scriptedHealthSource, the one chain the worker, `wavesync sync` (a path or --app) and drift detection use: the
 * cluster's argocd-cm below wavesync.yaml's scripts, read per cluster (or reused for `reuseMs`).
 */
describe('scriptedHealthSource: the same scripts for the worker, sync <path> and drift', () => {
  const HELD = [
    'ConfigMap:',
    '  health.lua: |',
    '    if obj.metadata.name == "held" then',
    '      return { status = "Degraded", message = "held by the cluster\'s argocd-cm" }',
    '    end',
    '    return { status = "Healthy" }',
  ].join('\n');
  const argocdCm = (data: Record<string, string>) =>
    cluster.apply(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'argocd-cm', namespace: 'argocd' }, data },
      { dryRun: false, force: true },
    );
  const reads = () =>
    sim.requests.filter((r) => r.method === 'GET' && r.path.includes('/configmaps/argocd-cm')).length;

  beforeAll(async () => {
    await cluster.apply(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'argocd' } },
      { dryRun: false, force: true },
    );
  });

  it('reads the cluster argocd-cm at every forCluster, or once per reuseMs', async () => {
    await argocdCm({
      'resource.customizations.health.example.com_Widget': 'return { status = "Degraded", message = "one" }',
    });
    let now = 0;
    const health = HealthSettingsSchema.parse({});
    const each = scriptedHealthSource(health, '/c/wavesync.yaml');
    const reused = scriptedHealthSource(health, '/c/wavesync.yaml', { reuseMs: 60_000, now: () => now });
    const judge = async (source: ReturnType<typeof scriptedHealthSource>) =>
      (await source.forCluster(cluster))?.(widget, { hasOwnCheck: false });

    const before = reads();
    expect(await judge(each)).toEqual({ status: 'Degraded', message: 'one' });
    expect(await judge(reused)).toEqual({ status: 'Degraded', message: 'one' });
    await argocdCm({
      'resource.customizations.health.example.com_Widget': 'return { status = "Degraded", message = "two" }',
    });
    expect(await judge(each)).toEqual({ status: 'Degraded', message: 'two' });
    expect(await judge(reused)).toEqual({ status: 'Degraded', message: 'one' });
    expect(reads() - before).toBe(3);
    now = 60_000;
    expect(await judge(reused)).toEqual({ status: 'Degraded', message: 'two' });
  });

  it('reads the argocd-cm at every forCluster but builds the scripts again only when its health keys changed', async () => {
    const key = 'resource.customizations.health.example.com_Widget';
    await argocdCm({ [key]: 'return { status = "Degraded", message = "one" }' });
    const each = scriptedHealthSource(HealthSettingsSchema.parse({}), '/c/wavesync.yaml');

    const before = reads();
    const first = await each.forCluster(cluster);
    const unchanged = await each.forCluster(cluster);
    await argocdCm({
      [key]: 'return { status = "Degraded", message = "one" }',
      url: 'https://argocd.example.com',
    });
    const otherKey = await each.forCluster(cluster);
    await argocdCm({ [key]: 'return { status = "Degraded", message = "two" }' });
    const edited = await each.forCluster(cluster);

    expect(reads() - before).toBe(4);
    expect(unchanged).toBe(first);
    expect(otherKey).toBe(first);
    expect(edited).not.toBe(first);
    expect(await edited?.(widget, { hasOwnCheck: false })).toEqual({ status: 'Degraded', message: 'two' });
  });

  it("wavesync sync <path> judges with the cluster's argocd-cm: a ConfigMap it calls Degraded fails its wave", async () => {
    await argocdCm({ 'resource.customizations': HELD });
    const dir = mkdtempSync(path.join(tmpdir(), 'wavesync-argocd-cm-'));
    const kubeconfig = path.join(dir, 'kubeconfig');
    await sim.writeKubeconfig(kubeconfig, { namespace: 'default' });
    writeFileSync(
      path.join(dir, 'app.yaml'),
      [
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata: { name: held }',
        '---',
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata: { name: after, annotations: { argocd.argoproj.io/sync-wave: "1" } }',
      ].join('\n'),
    );
    vi.stubEnv('WAVESYNC_CONFIG', undefined);
    try {
      const state = await syncManifests(
        path.join(dir, 'app.yaml'),
        {
          kubeconfig,
          prune: false,
          dryRun: false,
          output: 'json',
          syncOption: [],
          waitHealth: true,
          healthTimeout: '5',
        },
        () => {},
      );
      expect(state.phase).toBe('Failed');
      expect(state.message).toContain("held by the cluster's argocd-cm");
      expect(state.syncResult.resources.map((r) => r.name)).not.toContain('after');
    } finally {
      vi.unstubAllEnvs();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("drift's on-health-degraded notice judges with the cluster's argocd-cm", async () => {
    await argocdCm({ 'resource.customizations': HELD });
    const scripts = scriptedHealthSource(HealthSettingsSchema.parse({}), '/c/wavesync.yaml', {
      reuseMs: 60_000,
    });
    const notices: string[] = [];
    const app = {
      name: 'shop',
      destination: { namespace: 'default' },
      source: { repoURL: '', path: 'shop' },
      annotations: { 'notifications.argoproj.io/subscribe.on-health-degraded.slack': 'C0SHOP' },
      labels: {},
    } as unknown as Application;
    const deps: DegradedHealthNoticeDeps = {
      scriptedHealthFor: () => scripts.forCluster(cluster),
      marks: {
        claimSubscriptionNotice: async () => true,
        releaseSubscriptionNotice: async () => {},
      } as never,
      settings: { environments: {} } as never,
      queue: {
        history: async () =>
          [{ jobId: 'j1', phase: 'Succeeded', revision: 'abc', initiator: { userId: 'U0PAT' } }] as never,
        jobStatus: async () => undefined,
      },
      poster: {
        permalink: async () => undefined,
        postFailure: async () => {},
        postRecovery: async () => {},
        postNotice: async (_channel, notice) => {
          notices.push(notice.detail ?? '');
        },
      },
    };
    const held: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'held', namespace: 'default' },
    };

    await noticeDegradedHealth(deps, app, [held]);

    expect(notices).toEqual([
      "ConfigMap/held Degraded: held by the cluster's argocd-cm (seen by drift detection)",
    ]);
  });
  it("/sync resources judges with the cluster's argocd-cm: the tree shows the script's message", async () => {
    await argocdCm({ 'resource.customizations': HELD });
    const scripts = scriptedHealthSource(HealthSettingsSchema.parse({}), '/c/wavesync.yaml', {
      reuseMs: 60_000,
    });
    await cluster.apply(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'held',
          namespace: 'default',
          annotations: { 'argocd.argoproj.io/tracking-id': 'tree:/ConfigMap:default/held' },
        },
        data: { a: '1' },
      },
      { dryRun: false, force: true },
    );
    const views = createResourceViews({
      clusterFor: () => cluster,
      actions: createResourceActionCatalog({}),
      scriptedFor: () => scripts.forCluster(cluster),
    });

    const tree = await views.tree('tree');

    expect(tree.map((line) => [line.object.metadata.name, line.health])).toEqual([
      ['held', { status: 'Degraded', message: "held by the cluster's argocd-cm" }],
    ]);
  });
});
