import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../domain/index.js';
import type { Cluster, ObjectChange, WatchOptions, WatchTarget } from '../engine/index.js';
import { createLiveStateCache } from './live-state-cache.js';

const cm = (namespace: string, name: string, data: Record<string, string> = {}): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { namespace, name, managedFields: [{ manager: 'kubectl' }] },
    data,
  }) as KubeObject;

/** A cluster whose watch the test drives: relist(objects) as after a 410, change(...) as a watch event. */
function scriptedCluster(initial: KubeObject[]) {
  const calls = { list: 0, watch: 0, stopped: 0 };
  let listed: WatchOptions['onListed'];
  let onChange: ((change: ObjectChange) => void) | undefined;
  let target: WatchTarget | undefined;
  const relist = (objects: KubeObject[]) => {
    listed?.(target!, objects);
    for (const object of objects) onChange?.({ type: 'MODIFIED', object });
  };
  const cluster: Pick<Cluster, 'listKinds' | 'list' | 'watch'> = {
    listKinds: async () => [{ apiVersion: 'v1', kind: 'ConfigMap', namespaced: true }],
    list: async () => {
      calls.list++;
      return initial;
    },
    watch: (targets, change, options) => {
      calls.watch++;
      target = targets[0];
      onChange = change;
      listed = options?.onListed;
      queueMicrotask(() => relist(initial));
      return { stop: () => void calls.stopped++ };
    },
  };
  return { cluster, calls, relist, change: (c: ObjectChange) => onChange?.(c) };
}

const query = { apiVersion: 'v1', kind: 'ConfigMap', namespace: '' };

describe('src/drift/live-state-cache', () => {
  it('lists and watches a kind once, then answers from memory, without managedFields, filtered by namespace', async () => {
    const c = scriptedCluster([cm('a', 'one'), cm('b', 'two')]);
    const cache = createLiveStateCache({ cluster: c.cluster });

    const all = await cache.list(query);
    const inA = await cache.list({ ...query, namespace: 'a' });

    expect(all.map((o) => o.metadata.name)).toEqual(['one', 'two']);
    expect(inA.map((o) => o.metadata.name)).toEqual(['one']);
    expect(all[0]!.metadata.managedFields).toBeUndefined();
    expect(c.calls).toEqual({ list: 0, watch: 1, stopped: 0 });
  });

  it('follows watch events, tells onChange only of changes after the list, and a relist drops what was deleted meanwhile', async () => {
    const changes: string[] = [];
    const c = scriptedCluster([cm('a', 'one'), cm('a', 'two')]);
    const cache = createLiveStateCache({
      cluster: c.cluster,
      onChange: (ch) => changes.push(`${ch.type} ${ch.object.metadata.name}`),
    });
    await cache.list(query);
    await Promise.resolve();

    c.change({ type: 'MODIFIED', object: cm('a', 'one', { mode: 'edited' }) });
    c.change({ type: 'DELETED', object: cm('a', 'two') });
    const afterEvents = await cache.list(query);
    // The watch broke (410 Gone): the relist has 'three' and not 'one' (deleted while the watch was down).
    c.relist([cm('a', 'three')]);
    const afterRelist = await cache.list(query);

    expect(afterEvents.map((o) => [o.metadata.name, o.data])).toEqual([['one', { mode: 'edited' }]]);
    expect(afterRelist.map((o) => o.metadata.name)).toEqual(['three']);
    expect(changes.slice(0, 2)).toEqual(['MODIFIED one', 'DELETED two']);
    expect(cache.stats()).toEqual({ kinds: 1, objects: 1, readThrough: 0 });
  });

  it('reads a kind through when it would take the cache past its bound, and a labelSelector query always', async () => {
    const warnings: object[] = [];
    const c = scriptedCluster([cm('a', 'one'), cm('a', 'two'), cm('a', 'three')]);
    const cache = createLiveStateCache({
      cluster: c.cluster,
      maxObjects: 2,
      logger: { warn: (obj) => void warnings.push(obj) },
    });

    const first = await cache.list(query);
    await cache.list(query);
    await cache.list({ ...query, labelSelector: 'app=x' });

    expect(first).toHaveLength(3);
    expect(c.calls).toEqual({ list: 3, watch: 1, stopped: 1 });
    expect(cache.stats()).toEqual({ kinds: 0, objects: 0, readThrough: 1 });
    expect(warnings).toEqual([{ kind: 'v1/ConfigMap', objects: 3, maxObjects: 2 }]);
  });

  it('reads through while the first list has not come within readyTimeoutMs, waiting only once', async () => {
    const c = scriptedCluster([cm('a', 'one')]);
    const silent = { ...c.cluster, watch: () => ({ stop() {} }) };
    const cache = createLiveStateCache({ cluster: silent, readyTimeoutMs: 1500 });

    const started = Date.now();
    await cache.list(query);
    const firstMs = Date.now() - started;
    const again = Date.now();
    await cache.list(query);

    expect(firstMs).toBeGreaterThanOrEqual(1400);
    expect(Date.now() - again).toBeLessThan(1000);
    expect(c.calls.list).toBe(2);
  });

  it('reuses discovery for kindsTtlMs', async () => {
    let now = 0;
    let asked = 0;
    const c = scriptedCluster([]);
    const cache = createLiveStateCache({
      cluster: {
        ...c.cluster,
        listKinds: async () => {
          asked++;
          return [];
        },
      },
      kindsTtlMs: 1000,
      now: () => now,
    });

    await cache.listKinds();
    now = 999;
    await cache.listKinds();
    now = 1001;
    await cache.listKinds();

    expect(asked).toBe(2);
  });
});
