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
  let replayed: WatchOptions['onReplayed'];
  let failed: WatchOptions['onError'];
  let onChange: ((change: ObjectChange) => void) | undefined;
  let target: WatchTarget | undefined;
  const relist = (objects: KubeObject[]) => {
    listed?.(target!, objects);
    for (const object of objects) onChange?.({ type: 'MODIFIED', object });
    replayed?.(target!);
  };
  const unused = () => {
    throw new Error('not used by this test');
  };
  const cluster: Cluster = {
    discover: unused,
    get: unused,
    apply: unused,
    create: unused,
    replace: unused,
    delete: unused,
    removeFinalizer: unused,
    podLogs: unused,
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
      replayed = options?.onReplayed;
      failed = options?.onError;
      queueMicrotask(() => relist(initial));
      return { stop: () => void calls.stopped++ };
    },
  };
  return {
    cluster,
    calls,
    relist,
    change: (c: ObjectChange) => onChange?.(c),
    fail: (error: unknown) => failed?.(target!, error),
  };
}

const query = { apiVersion: 'v1', kind: 'ConfigMap', namespace: '' };

describe('src/kube/live-state-cache', () => {
  it('lists and watches a kind once, then answers from memory, without managedFields, filtered by namespace', async () => {
    const c = scriptedCluster([cm('a', 'one'), cm('b', 'two')]);
    const cache = createLiveStateCache({ cluster: c.cluster });

    // The first read answers from the API server while the kind's list+watch starts; the next ones read memory.
    const first = await cache.list(query);
    const all = await cache.list(query);
    const inA = await cache.list({ ...query, namespace: 'a' });

    expect(first.map((o) => o.metadata.name)).toEqual(['one', 'two']);
    expect(all.map((o) => o.metadata.name)).toEqual(['one', 'two']);
    expect(inA.map((o) => o.metadata.name)).toEqual(['one']);
    expect(all[0]!.metadata.managedFields).toBeUndefined();
    expect(c.calls).toEqual({ list: 1, watch: 1, stopped: 0 });
  });

  it('follows watch events, tells onChange only of changes after the list, and a relist drops what was deleted meanwhile', async () => {
    const changes: string[] = [];
    const c = scriptedCluster([cm('a', 'one'), cm('a', 'two')]);
    const cache = createLiveStateCache({ cluster: c.cluster });
    cache.onChange((ch) => changes.push(`${ch.type} ${ch.object.metadata.name}`));
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
    await Promise.resolve();
    await cache.list(query);
    await cache.list({ ...query, labelSelector: 'app=x' });

    expect(first).toHaveLength(3);
    expect(c.calls).toEqual({ list: 3, watch: 1, stopped: 1 });
    expect(cache.stats()).toEqual({ kinds: 0, objects: 0, readThrough: 1 });
    expect(warnings).toEqual([{ kind: 'v1/ConfigMap', objects: 3, maxObjects: 2 }]);
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

  it('after our own apply, reads return the apply answer until the watch has seen that resourceVersion (never an older copy)', async () => {
    const at = (rv: string, data: Record<string, string>) =>
      ({
        ...cm('a', 'one', data),
        metadata: { ...cm('a', 'one').metadata, resourceVersion: rv },
      }) as KubeObject;
    const c = scriptedCluster([at('3', { v: 'old' })]);
    const cache = createLiveStateCache({
      cluster: {
        ...c.cluster,
        apply: async (obj, options) => (options.dryRun ? at('99', { v: 'dry' }) : at('5', obj.data as never)),
      },
    });
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'a', name: 'one' };
    await cache.list(query);
    await Promise.resolve();

    await cache.apply(at('', { v: 'dry' }), { dryRun: true, force: true });
    const afterDryRun = await cache.get(ref);
    await cache.apply(at('', { v: 'new' }), { dryRun: false, force: true });
    const afterApply = await cache.get(ref);
    c.change({ type: 'MODIFIED', object: at('4', { v: 'in flight' }) }); // an older event still on its way
    const afterOlderEvent = await cache.get(ref);
    const listed = await cache.list({ ...query, namespace: 'a' });
    c.change({ type: 'MODIFIED', object: at('6', { v: 'newer' }) });
    const afterNewer = await cache.get(ref);

    expect(afterDryRun?.data).toEqual({ v: 'old' });
    expect(afterApply?.metadata.resourceVersion).toBe('5');
    expect(afterOlderEvent?.metadata.resourceVersion).toBe('5');
    expect(listed.map((o) => o.metadata.resourceVersion)).toEqual(['5']);
    expect(afterNewer?.data).toEqual({ v: 'newer' });
  });

  it('after our own delete the object is read from the API server until the watch reports it', async () => {
    let gets = 0;
    const c = scriptedCluster([cm('a', 'one')]);
    const cache = createLiveStateCache({
      cluster: {
        ...c.cluster,
        delete: async () => true,
        get: async () => {
          gets++;
          return undefined;
        },
      },
    });
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'a', name: 'one' };
    await cache.list(query);
    await Promise.resolve();

    const before = await cache.get(ref);
    await cache.delete(ref, { propagationPolicy: 'Foreground' });
    const afterDelete = await cache.get(ref);
    c.change({ type: 'DELETED', object: cm('a', 'one') });
    const afterEvent = await cache.get(ref);

    expect(before?.metadata.name).toBe('one');
    expect(afterDelete).toBeUndefined();
    expect(afterEvent).toBeUndefined();
    expect(gets).toBe(1);
  });

  it("watch() subscribes to the kind's one watch, filtered by namespace, and stop() unsubscribes", async () => {
    const c = scriptedCluster([cm('a', 'one')]);
    const cache = createLiveStateCache({ cluster: c.cluster });
    const inA: string[] = [];
    const all: string[] = [];
    const first = cache.watch([{ ...query, namespace: 'a' }], (ch) => inA.push(ch.object.metadata.name!));
    const second = cache.watch([query], (ch) => all.push(ch.object.metadata.name!));
    await Promise.resolve();
    await Promise.resolve();

    c.change({ type: 'ADDED', object: cm('a', 'two') });
    c.change({ type: 'ADDED', object: cm('b', 'three') });
    first.stop();
    c.change({ type: 'ADDED', object: cm('a', 'four') });
    second.stop();

    expect(c.calls.watch).toBe(1);
    expect(inA).toEqual(['one', 'two']);
    expect(all).toEqual(['one', 'two', 'three', 'four']);
    expect(c.calls.stopped).toBe(0);
  });

  it('a trackedBy list reads the index of the objects whose tracking annotation or label names the Application, kept up to date by the watch', async () => {
    const tracked = (name: string, annotationApp?: string, labelApp?: string) => {
      const obj = cm('a', name);
      if (annotationApp)
        obj.metadata.annotations = {
          'argocd.argoproj.io/tracking-id': `${annotationApp}:/ConfigMap:a/${name}`,
        };
      if (labelApp) obj.metadata.labels = { 'app.kubernetes.io/instance': labelApp };
      return obj;
    };
    const c = scriptedCluster([
      tracked('one', 'web'),
      tracked('two', undefined, 'web'),
      tracked('three', 'db'),
    ]);
    const cache = createLiveStateCache({ cluster: c.cluster });
    await cache.list(query);
    await Promise.resolve();
    const names = async (app: string) =>
      (await cache.list({ ...query, trackedBy: app })).map((o) => o.metadata.name).sort();

    const before = await names('web');
    c.change({ type: 'MODIFIED', object: tracked('one', 'db') });
    c.change({ type: 'DELETED', object: tracked('two', undefined, 'web') });
    const after = [await names('web'), await names('db')];

    expect(before).toEqual(['one', 'two']);
    expect(after).toEqual([[], ['one', 'three']]);
  });

  it('does not trust a kind whose watch is down: reads go to the API server (and fail there) until the next list', async () => {
    const c = scriptedCluster([cm('a', 'one')]);
    let down = false;
    const cache = createLiveStateCache({
      cluster: {
        ...c.cluster,
        list: async (q) => {
          if (down) throw new Error('connect ECONNREFUSED');
          return c.cluster.list(q);
        },
      },
    });
    await cache.list(query);
    await Promise.resolve();

    down = true;
    const fromMemory = await cache.list(query);
    c.fail(new Error('connect ECONNREFUSED'));
    const whileDown = await cache.list(query).catch((error: Error) => error.message);
    down = false;
    c.relist([cm('a', 'two')]);
    const afterRelist = await cache.list(query);

    expect(fromMemory.map((o) => o.metadata.name)).toEqual(['one']);
    expect(whileDown).toBe('connect ECONNREFUSED');
    expect(afterRelist.map((o) => o.metadata.name)).toEqual(['two']);
  });
});
