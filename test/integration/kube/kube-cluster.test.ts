import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import type { KubeObject } from '../../../src/domain/index.js';
import { type Cluster, ClusterError, type ObjectChange } from '../../../src/engine/cluster.js';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';
import { servedCrd } from '../../builders/manifest-builders.js';
import { failure } from '../../support/failure.js';

let sim: Simulator;
let cluster: Cluster;

beforeAll(async () => {
  sim = await startSimulator({ speed: 20 });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig({ namespace: 'default' }));
  cluster = createKubeCluster(kc, { watchTimeoutSeconds: 2 });
});

afterAll(async () => {
  await sim.stop();
});

function configMap(name: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'default', ...extra },
    data: { k: 'v' },
  };
}

const ref = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name });

describe('createKubeCluster over HTTP against the simulator (real client-node 1.4.0)', () => {
  it('discovers served kinds and answers undefined for kinds nobody serves', async () => {
    expect(await cluster.discover('apps/v1', 'Deployment')).toEqual({
      name: 'deployments',
      namespaced: true,
    });
    expect(await cluster.discover('v1', 'Namespace')).toEqual({ name: 'namespaces', namespaced: false });
    expect(await cluster.discover('example.com/v1', 'Widget')).toBeUndefined();
    const kinds = await cluster.listKinds();
    expect(kinds).toContainEqual({ apiVersion: 'batch/v1', kind: 'Job', namespaced: true });
  });

  it('asks discovery once for concurrent misses, and again for a kind its cached list lacks (a CRD created since)', async () => {
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfig({ namespace: 'default' }));
    const fresh = createKubeCluster(kc);
    const asked = (path: string) => sim.requests.filter((r) => r.method === 'GET' && r.path === path).length;
    const before = asked('/apis/apps/v1');
    const found = await Promise.all(
      Array.from({ length: 10 }, () => fresh.discover('apps/v1', 'Deployment')),
    );
    expect(found.every((f) => f?.name === 'deployments')).toBe(true);
    expect(asked('/apis/apps/v1') - before).toBe(1);

    const group = 'discovery.example.com';
    await fresh.apply(servedCrd(group, 'Gadget', 'gadgets'), { dryRun: false, force: true });
    const served = async (kind: string) => {
      for (let i = 0; i < 100; i++) {
        const info = await fresh.discover(`${group}/v1`, kind);
        if (info) return info;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return undefined;
    };
    expect(await served('Gadget')).toEqual({ name: 'gadgets', namespaced: true });
    // The group's list is now cached without Gizmo: a miss must ask the server again.
    await fresh.apply(servedCrd(group, 'Gizmo', 'gizmos'), { dryRun: false, force: true });
    expect(await served('Gizmo')).toEqual({ name: 'gizmos', namespaced: true });
    expect(
      await fresh.get({ apiVersion: `${group}/v1`, kind: 'Gizmo', namespace: 'default', name: 'none' }),
    ).toBe(undefined);
  });

  it('lists the served kinds from aggregated discovery: GET /api and /apis only, and the kinds served since', async () => {
    const kc = new KubeConfig();
    kc.loadFromString(sim.kubeconfig({ namespace: 'default' }));
    const fresh = createKubeCluster(kc);
    const before = sim.requests.length;
    // A kind's discovery asked while the listing is under way waits for it: no GET /api/v1 beside it.
    const [kinds, configMaps] = await Promise.all([fresh.listKinds(), fresh.discover('v1', 'ConfigMap')]);
    expect(configMaps).toEqual({ name: 'configmaps', namespaced: true });
    await fresh.discover('apps/v1', 'Deployment');
    const asked = sim.requests.slice(before).map((r) => `${r.method} ${r.path}`);
    expect(asked.sort()).toEqual(['GET /api', 'GET /apis']);
    expect(kinds).toContainEqual({ apiVersion: 'v1', kind: 'Namespace', namespaced: false });
    expect(kinds).toContainEqual({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      namespaced: true,
    });
    // Subresources and kinds that cannot be listed and deleted are left out, as from the legacy walk.
    expect(kinds.map((k) => k.kind)).not.toContain('Scale');

    const group = 'aggregated.example.com';
    await fresh.apply(servedCrd(group, 'Sprocket', 'sprockets'), { dryRun: false, force: true });
    let served: Awaited<ReturnType<Cluster['listKinds']>> = [];
    for (let i = 0; i < 100 && !served.some((k) => k.kind === 'Sprocket'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      served = await fresh.listKinds();
    }
    expect(served).toContainEqual({ apiVersion: `${group}/v1`, kind: 'Sprocket', namespaced: true });
  });

  it('walks the legacy documents on an API server without aggregated discovery, to the same kinds', async () => {
    const legacySim = await startSimulator({ speed: 20, aggregatedDiscovery: false });
    try {
      const kc = new KubeConfig();
      kc.loadFromString(legacySim.kubeconfig({ namespace: 'default' }));
      const legacy = createKubeCluster(kc);
      const [kinds] = await Promise.all([legacy.listKinds(), legacy.discover('v1', 'ConfigMap')]);
      const asked = legacySim.requests.map((r) => r.path);
      // /api and /apis (answered in the legacy form: not asked twice), then the preferred version of each group.
      expect(asked.filter((p) => p === '/api' || p === '/apis').sort()).toEqual(['/api', '/apis']);
      expect(asked.filter((p) => p === '/api/v1')).toEqual(['/api/v1']);
      expect(asked).toContain('/apis/apps/v1');
      const onAggregated = new KubeConfig();
      onAggregated.loadFromString(sim.kubeconfig({ namespace: 'default' }));
      const builtIn = (await createKubeCluster(onAggregated).listKinds()).filter(
        (k) => !k.apiVersion.includes('example.com'),
      );
      expect(kinds).toEqual(builtIn);
    } finally {
      await legacySim.stop();
    }
  });

  it('server-side dry run persists nothing; apply does, with plain JSON timestamps', async () => {
    await cluster.apply(configMap('dry'), { dryRun: true, force: true });
    expect(await cluster.get(ref('dry'))).toBeUndefined();
    const applied = await cluster.apply(configMap('real', { labels: { team: 'a' } }), {
      dryRun: false,
      force: true,
    });
    expect(typeof applied.metadata.creationTimestamp).toBe('string');
    expect((await cluster.get(ref('real')))?.data).toEqual({ k: 'v' });
    const listed = await cluster.list({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: '',
      labelSelector: 'team=a',
    });
    expect(listed.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['ConfigMap/real']);
  });

  it('lists a kind in pages of 500 (limit and continue) and returns every object once', async () => {
    await cluster.apply(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'paged' } },
      { dryRun: false, force: true },
    );
    const names = Array.from({ length: 1201 }, (_, i) => `paged-${String(i).padStart(4, '0')}`);
    for (let i = 0; i < names.length; i += 100)
      await Promise.all(
        names
          .slice(i, i + 100)
          .map((name) =>
            cluster.apply(
              { ...configMap(name), metadata: { name, namespace: 'paged' } },
              { dryRun: false, force: true },
            ),
          ),
      );
    const before = sim.requests.length;
    const listed = await cluster.list({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'paged' });

    expect(listed.map((o) => o.metadata.name).sort()).toEqual(names);
    expect(listed.every((o) => o.apiVersion === 'v1' && o.kind === 'ConfigMap')).toBe(true);
    const lists = sim.requests
      .slice(before)
      .filter((r) => r.method === 'GET' && r.path.includes('/configmaps'));
    expect(lists.map((r) => new URL(r.path, 'http://sim').searchParams.get('continue'))).toEqual([
      null,
      '500',
      '1000',
    ]);
    expect(lists.every((r) => r.path.includes('limit=500'))).toBe(true);
  });

  it('lists a watched kind in pages of 500 too, and hands the whole list on once before watching, its replay in time slices', async () => {
    const before = sim.requests.length;
    const listed: string[][] = [];
    const changes: string[] = [];
    // setImmediate work between onListed and onReplayed: the replay yields to the event loop.
    let ticks = 0;
    let ticksInReplay = -1;
    let changesAtReplayed = -1;
    const tick = () => {
      ticks++;
      if (changesAtReplayed < 0) setImmediate(tick);
    };
    const watch = cluster.watch(
      [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'paged' }],
      (c) => changes.push(c.object.metadata.name ?? ''),
      {
        onListed: (_target, objects) => {
          listed.push(objects.map((o) => o.metadata.name ?? ''));
          ticks = 0;
          setImmediate(tick);
        },
        onReplayed: () => {
          ticksInReplay = ticks;
          changesAtReplayed = changes.length;
        },
      },
    );
    try {
      await expect.poll(() => changesAtReplayed, { timeout: 8000 }).toBe(1201);
      expect(listed.length).toBe(1);
      expect(ticksInReplay).toBeGreaterThan(0);
      const names = Array.from({ length: 1201 }, (_, i) => `paged-${String(i).padStart(4, '0')}`);
      expect([...(listed[0] ?? [])].sort()).toEqual(names);
      expect([...changes].sort()).toEqual(names);
      const lists = sim.requests
        .slice(before)
        .filter(
          (r) => r.method === 'GET' && r.path.includes('/configmaps') && !r.path.includes('watch=true'),
        );
      expect(lists.map((r) => new URL(r.path, 'http://sim').searchParams.get('continue'))).toEqual([
        null,
        '500',
        '1000',
      ]);
      expect(lists.every((r) => r.path.includes('limit=500'))).toBe(true);
    } finally {
      watch.stop();
    }
  });

  it('maps a rejected write to a permanent ClusterError with the API server message', async () => {
    const error = await failure<ClusterError>(
      cluster.apply(
        { ...configMap('bad'), metadata: { name: 'bad', namespace: 'default', labels: { x: '-nope-' } } },
        {
          dryRun: true,
          force: true,
        },
      ),
    );
    expect(error).toBeInstanceOf(ClusterError);
    expect(error.statusCode).toBe(422);
    expect(error.transient).toBe(false);
    expect(error.message).toMatch(/metadata\.labels: Invalid value: "-nope-"/);
  });

  it('creates with validation off (Validate=false), which server-side apply refuses', async () => {
    const withUnknownField = { ...configMap('loose'), invalidKey: 'x' };
    await expect(cluster.apply(withUnknownField, { dryRun: false, force: true })).rejects.toThrow(
      /invalidKey/,
    );
    await cluster.create(withUnknownField, { dryRun: false, validate: false });
    expect(await cluster.get(ref('loose'))).toBeDefined();
  });

  it('removes one finalizer and reports whether a delete found the object', async () => {
    await cluster.apply(configMap('held', { finalizers: ['example.com/keep', 'example.com/other'] }), {
      dryRun: false,
      force: true,
    });
    await cluster.removeFinalizer(ref('held'), 'example.com/keep');
    expect((await cluster.get(ref('held')))?.metadata.finalizers).toEqual(['example.com/other']);
    await cluster.removeFinalizer(ref('missing'), 'example.com/keep');
    expect(await cluster.delete(ref('missing'), { propagationPolicy: 'Background' })).toBe(false);
    expect(await cluster.delete(ref('real'), { propagationPolicy: 'Background' })).toBe(true);
  });

  it('tells a list its resourceVersion and drops, page by page, the items `keep` refuses', async () => {
    let version: string | undefined;
    const kept = await cluster.list({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'paged',
      keep: (obj) => obj.kind === 'ConfigMap' && (obj.metadata.name ?? '').endsWith('7'),
      listedAt: (resourceVersion) => {
        version = resourceVersion;
      },
    });

    expect(kept.map((o) => o.metadata.name)).toEqual(
      Array.from({ length: 120 }, (_, i) => `paged-${String(i * 10 + 7).padStart(4, '0')}`),
    );
    expect(Number(version)).toBeGreaterThan(0);
  });

  it('watches from a list it is given (WatchTarget.resourceVersion): no list of its own, every change since', async () => {
    await cluster.apply(configMap('from-1'), { dryRun: false, force: true });
    let version = '';
    await cluster.list({
      ...ref(''),
      listedAt: (resourceVersion) => {
        version = resourceVersion;
      },
    });
    await cluster.apply(configMap('from-2'), { dryRun: false, force: true }); // after the list, before the watch
    const before = sim.requests.length;
    const seen: string[] = [];
    let listed = 0;
    const watch = cluster.watch(
      [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', resourceVersion: version }],
      (c) => seen.push(`${c.type} ${c.object.metadata.name}`),
      {
        onListed: () => {
          listed++;
        },
      },
    );
    try {
      await cluster.apply(configMap('from-3'), { dryRun: false, force: true });
      await expect.poll(() => seen, { timeout: 5000 }).toEqual(['ADDED from-2', 'ADDED from-3']);
      const lists = sim.requests
        .slice(before)
        .filter(
          (r) => r.method === 'GET' && r.path.includes('/configmaps') && !r.path.includes('watch=true'),
        );
      expect(lists).toEqual([]);
      expect(listed).toBe(0);
    } finally {
      watch.stop();
    }
  });

  it("watches one namespace from a list of the kind in all namespaces: that list's version holds for it", async () => {
    await cluster.apply(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } },
      { dryRun: false, force: true },
    );
    const inOther = (name: string) => configMap(name, { namespace: 'other' });
    let version = '';
    await cluster.list({
      ...ref(''),
      namespace: '',
      listedAt: (resourceVersion) => {
        version = resourceVersion;
      },
    });
    await cluster.apply(configMap('wide-1'), { dryRun: false, force: true }); // after the list, before the watch
    await cluster.apply(inOther('wide-1'), { dryRun: false, force: true });
    const before = sim.requests.length;
    const seen: string[] = [];
    const watch = cluster.watch(
      [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', resourceVersion: version }],
      (c) => seen.push(`${c.type} ${c.object.metadata.namespace}/${c.object.metadata.name}`),
    );
    try {
      await cluster.apply(inOther('wide-2'), { dryRun: false, force: true });
      await cluster.apply(configMap('wide-2'), { dryRun: false, force: true });
      await expect
        .poll(() => seen, { timeout: 5000 })
        .toEqual(['ADDED default/wide-1', 'ADDED default/wide-2']);
      const lists = sim.requests
        .slice(before)
        .filter(
          (r) => r.method === 'GET' && r.path.includes('/configmaps') && !r.path.includes('watch=true'),
        );
      expect(lists).toEqual([]);
    } finally {
      watch.stop();
    }
  });

  it('lists after all when the version it is given to watch from is compacted away (410 Gone)', async () => {
    let version = '';
    await cluster.list({
      ...ref(''),
      listedAt: (resourceVersion) => {
        version = resourceVersion;
      },
    });
    await cluster.apply(configMap('gone-1'), { dryRun: false, force: true });
    sim.compact();
    const listed: string[][] = [];
    const watch = cluster.watch(
      [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', resourceVersion: version }],
      () => {},
      {
        onListed: (_target, objects) => {
          listed.push(objects.map((o) => o.metadata.name ?? ''));
        },
      },
    );
    try {
      await expect.poll(() => listed.length, { timeout: 8000 }).toBe(1);
      expect(listed[0]).toContain('gone-1');
    } finally {
      watch.stop();
    }
  });

  it('watches a collection and keeps watching when a restart hits compacted history (410 Gone → relist)', async () => {
    const seen: ObjectChange[] = [];
    const watch = cluster.watch([{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default' }], (c) =>
      seen.push(c),
    );
    try {
      await cluster.apply(configMap('w1'), { dryRun: false, force: true });
      await expect
        .poll(() => seen.some((c) => c.object.metadata.name === 'w1'), { timeout: 5000 })
        .toBe(true);
      sim.compact();
      const watchRequests = () => sim.requests.filter((r) => r.path.includes('watch=true')).length;
      const before = watchRequests();
      await expect.poll(watchRequests, { timeout: 8000 }).toBeGreaterThan(before); // bounded watch restarted
      await cluster.apply(configMap('w2'), { dryRun: false, force: true });
      await expect
        .poll(() => seen.some((c) => c.object.metadata.name === 'w2'), { timeout: 8000 })
        .toBe(true);
    } finally {
      watch.stop();
    }
  });

  it('returns no log lines for a Pod that does not exist', async () => {
    expect(await cluster.podLogs('default', 'nope', { tailLines: 5 })).toEqual([]);
  });
});
