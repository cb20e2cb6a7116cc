import { describe, expect, it } from 'vitest';
import { countEventLoopTurns } from '../../test/support/event-loop-turns.js';
import type { KubeObject } from '../domain/index.js';
import {
  type Cluster,
  ClusterError,
  type ObjectChange,
  type WatchOptions,
  type WatchTarget,
} from '../engine/index.js';
import { createLiveStateCache } from './live-state-cache.js';

const cm = (namespace: string, name: string, data: Record<string, string> = {}): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { namespace, name, managedFields: [{ manager: 'kubectl' }] },
    data,
  }) as KubeObject;

/**
 * A cluster whose watch the test drives: relist(objects) as after a 410, change(...) as a watch event. With
 * `relists`, its watch has `relist()` (counted in `asked.relists`, as the real one: the test still decides when the
 * list answers, and what).
 */
function scriptedCluster(initial: KubeObject[], { listsAtOnce = true, relists = false } = {}) {
  const calls = { list: 0, watch: 0, stopped: 0 };
  const asked = { relists: 0 };
  let listed: WatchOptions['onListed'];
  let replayed: WatchOptions['onReplayed'];
  let failed: WatchOptions['onError'];
  let onChange: ((change: ObjectChange) => void) | undefined;
  let target: WatchTarget | undefined;
  // As the real watch (src/kube/kube-watch.ts): the replay waits for onListed.
  const relist = async (objects: KubeObject[]) => {
    await listed?.(target!, objects);
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
      if (listsAtOnce) queueMicrotask(() => relist(initial));
      return {
        stop: () => void calls.stopped++,
        ...(relists ? { relist: () => void asked.relists++ } : {}),
      };
    },
  };
  return {
    cluster,
    calls,
    asked,
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

    // The first read starts the kind's list+watch and waits for that list; the next ones read memory.
    const first = await cache.list(query);
    const all = await cache.list(query);
    const inA = await cache.list({ ...query, namespace: 'a' });

    expect(first.map((o) => o.metadata.name)).toEqual(['one', 'two']);
    expect(all.map((o) => o.metadata.name)).toEqual(['one', 'two']);
    expect(inA.map((o) => o.metadata.name)).toEqual(['one']);
    expect(all[0]!.metadata.managedFields).toBeUndefined();
    expect(c.calls).toEqual({ list: 0, watch: 1, stopped: 0 });
  });

  it('lists of a kind whose first list is under way wait for it instead of listing the kind again, and a write meanwhile is read back', async () => {
    const c = scriptedCluster([cm('a', 'one')], { listsAtOnce: false });
    const cache = createLiveStateCache({
      cluster: {
        ...c.cluster,
        apply: async (obj) => ({ ...obj, metadata: { ...obj.metadata, resourceVersion: '7' } }),
      },
    });

    const reads = [cache.list(query), cache.list({ ...query, namespace: 'a' }), cache.list(query)];
    // Our own apply while the list is under way; the list's answer (sent before it) does not have it yet.
    await cache.apply(cm('a', 'two'), { dryRun: false, force: true });
    c.relist([cm('a', 'one')]);
    const answers = await Promise.all(reads);
    const after = await cache.list(query);

    expect(answers.map((a) => a.map((o) => o.metadata.name))).toEqual([
      ['one', 'two'],
      ['one', 'two'],
      ['one', 'two'],
    ]);
    expect(after.map((o) => o.metadata.name)).toEqual(['one', 'two']);
    expect(c.calls).toEqual({ list: 0, watch: 1, stopped: 0 });
  });

  it("a list waiting for the kind's first list reads through when that list fails, and gets the API server's answer", async () => {
    const c = scriptedCluster([cm('a', 'one')], { listsAtOnce: false });
    const cache = createLiveStateCache({
      cluster: {
        ...c.cluster,
        list: async () => {
          c.calls.list++;
          throw new Error('connect ECONNREFUSED');
        },
      },
    });

    const read = cache.list(query).catch((error: Error) => error.message);
    c.fail(new Error('connect ECONNREFUSED'));

    expect(await read).toBe('connect ECONNREFUSED');
    expect(c.calls.list).toBe(1);
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

  it("builds a relist's copy between turns of the event loop, and reads meanwhile get the whole previous copy", async () => {
    const c = scriptedCluster([cm('a', 'one'), cm('a', 'two')]);
    // A slice of 0 ms pauses after every object: whether it pauses does not depend on the machine's speed.
    const cache = createLiveStateCache({ cluster: c.cluster, sliceMs: 0 });
    await cache.list(query);
    const turns = countEventLoopTurns();

    const relisted = c.relist(Array.from({ length: 50 }, (_, i) => cm('b', `new-${i}`)));
    await new Promise((resolve) => setImmediate(resolve));
    const during = await cache.list(query);
    await relisted;
    const after = await cache.list(query);

    expect(turns.stop()).toBeGreaterThan(10);
    expect(during.map((o) => o.metadata.name)).toEqual(['one', 'two']);
    expect(after.map((o) => o.metadata.name)).toEqual(Array.from({ length: 50 }, (_, i) => `new-${i}`));
    expect(cache.stats()).toEqual({ kinds: 1, objects: 50, readThrough: 0 });
  });

  it("reads a big list between turns of the event loop, every object of it, and an Application's (trackedBy) too", async () => {
    const objects = Array.from({ length: 60 }, (_, i) => ({
      ...cm('a', `cm-${i}`),
      metadata: {
        namespace: 'a',
        name: `cm-${i}`,
        labels: { 'app.kubernetes.io/instance': i < 30 ? 'web' : 'db' },
      },
    })) as KubeObject[];
    const c = scriptedCluster(objects);
    const cache = createLiveStateCache({ cluster: c.cluster, sliceMs: 0 });
    await cache.list(query);

    const turns = countEventLoopTurns();
    const all = await cache.list(query);
    const web = await cache.list({ ...query, trackedBy: 'web' });

    expect(turns.stop()).toBeGreaterThan(20);
    expect(all.map((o) => o.metadata.name)).toEqual(objects.map((o) => o.metadata.name));
    expect(web.map((o) => o.metadata.name)).toEqual(objects.slice(0, 30).map((o) => o.metadata.name));
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

  it('asks discovery again after a CustomResourceDefinition changes: a kind served since is looked in', async () => {
    let asked = 0;
    const crd = (name: string) =>
      ({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name },
      }) as KubeObject;
    const c = scriptedCluster([crd('widgets.example.com')]);
    const cache = createLiveStateCache({
      cluster: {
        ...c.cluster,
        listKinds: async () => {
          asked++;
          return [];
        },
      },
    });
    await cache.list({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      namespace: '',
    });
    await Promise.resolve();

    await cache.listKinds();
    await cache.listKinds();
    c.change({ type: 'ADDED', object: crd('gadgets.example.com') });
    await cache.listKinds();
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

  it('prime() starts the list+watch of kinds before anything reads them; a primed kind whose list is refused is read through', async () => {
    const c = scriptedCluster([cm('a', 'one')], { listsAtOnce: false });
    const warnings: object[] = [];
    const cache = createLiveStateCache({
      cluster: c.cluster,
      logger: { warn: (obj) => void warnings.push(obj) },
    });

    cache.prime([query]);
    cache.prime([query]);
    c.relist([cm('a', 'one')]);
    const primed = await cache.list(query);
    expect(primed.map((o) => o.metadata.name)).toEqual(['one']);
    expect(c.calls).toEqual({ list: 0, watch: 1, stopped: 0 });

    const refusing = scriptedCluster([], { listsAtOnce: false });
    const refused = createLiveStateCache({
      cluster: {
        ...refusing.cluster,
        list: async () => {
          refusing.calls.list++;
          throw new ClusterError('forbidden', { statusCode: 403, transient: false });
        },
      },
      logger: { warn: (obj) => void warnings.push(obj) },
    });
    refused.prime([query]);
    refusing.fail(new ClusterError('forbidden', { statusCode: 403, transient: false }));
    const read = await refused.list(query).catch((error: Error) => error.message);

    expect(read).toBe('forbidden');
    expect(refusing.calls).toEqual({ list: 1, watch: 1, stopped: 1 });
    expect(refused.stats()).toEqual({ kinds: 0, objects: 0, readThrough: 1 });
    expect(warnings).toEqual([{ kind: 'v1/ConfigMap', statusCode: 403 }]);
  });

  it("a trackedBy list right after our own apply that marks an existing object as the Application's has that object", async () => {
    const c = scriptedCluster([cm('a', 'one'), cm('a', 'two')]);
    const cache = createLiveStateCache({
      cluster: {
        ...c.cluster,
        apply: async (obj) => ({ ...obj, metadata: { ...obj.metadata, resourceVersion: '9' } }),
      },
    });
    await cache.list(query);
    await Promise.resolve();
    const marked = cm('a', 'two');
    marked.metadata.annotations = { 'argocd.argoproj.io/tracking-id': 'web:/ConfigMap:a/two' };

    const before = await cache.list({ ...query, trackedBy: 'web' });
    await cache.apply(marked, { dryRun: false, force: true });
    const after = await cache.list({ ...query, trackedBy: 'web' });
    const other = await cache.list({ ...query, trackedBy: 'db' });

    expect(before).toEqual([]);
    expect(after.map((o) => [o.metadata.name, o.metadata.resourceVersion])).toEqual([['two', '9']]);
    expect(other).toEqual([]);
  });

  it('a list right after our own delete reads that object from the API server until the watch reports it', async () => {
    const gets: string[] = [];
    const c = scriptedCluster([cm('a', 'one'), cm('a', 'two')]);
    const cache = createLiveStateCache({
      cluster: {
        ...c.cluster,
        delete: async () => true,
        get: async (ref) => {
          gets.push(ref.name);
          return undefined;
        },
      },
    });
    await cache.list(query);
    await Promise.resolve();

    await cache.delete(
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'a', name: 'one' },
      { propagationPolicy: 'Foreground' },
    );
    const afterDelete = await cache.list(query);
    c.change({ type: 'DELETED', object: cm('a', 'one') });
    const afterEvent = await cache.list(query);

    expect(afterDelete.map((o) => o.metadata.name)).toEqual(['two']);
    expect(afterEvent.map((o) => o.metadata.name)).toEqual(['two']);
    expect(gets).toEqual(['one']);
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
  it("lists of a kind whose watch is down wait for the watch's relist (asked for at once), one for all of them, and read memory after it", async () => {
    const c = scriptedCluster([cm('a', 'one')], { relists: true });
    const cache = createLiveStateCache({ cluster: c.cluster });
    await cache.list(query);
    await Promise.resolve();

    c.fail(new ClusterError('watch ConfigMap: connection reset', { transient: true }));
    const waiting = Array.from({ length: 20 }, () => cache.list(query));
    await Promise.resolve();
    const relistsAsked = c.asked.relists;
    c.relist([cm('a', 'two')]);
    const lists = await Promise.all(waiting);
    const after = await cache.list(query);

    expect(relistsAsked).toBeGreaterThanOrEqual(1);
    expect(c.calls.list).toBe(0);
    expect(lists.map((l) => l.map((o) => o.metadata.name))).toEqual(Array(20).fill(['two']));
    expect(after.map((o) => o.metadata.name)).toEqual(['two']);
  });

  it("an outage: lists waiting for the relist fail at once with the relist's error (the API server's), and the cache serves again after the next list", async () => {
    const c = scriptedCluster([cm('a', 'one')], { relists: true });
    const cache = createLiveStateCache({ cluster: c.cluster });
    await cache.list(query);
    await Promise.resolve();

    const outage = new ClusterError(
      'list ConfigMap: the API server could not be reached (connection refused)',
      {
        transient: true,
      },
    );
    c.fail(outage);
    const waiting = Array.from({ length: 5 }, () => cache.list(query).catch((error: unknown) => error));
    await Promise.resolve();
    c.fail(outage); // the relist the lists asked for fails too
    const errors = await Promise.all(waiting);
    const next = cache.list(query).catch((error: unknown) => error);
    await Promise.resolve();
    c.relist([cm('a', 'back')]);
    const recovered = await next;

    expect(errors).toEqual(Array(5).fill(outage));
    expect(c.calls.list).toBe(0);
    expect((recovered as KubeObject[]).map((o) => o.metadata.name)).toEqual(['back']);
    expect((await cache.list(query)).map((o) => o.metadata.name)).toEqual(['back']);
  });

  it('a relist that fails on something other than the API server trouble (the kind no longer served) reads through', async () => {
    const c = scriptedCluster([cm('a', 'one')], { relists: true });
    const cache = createLiveStateCache({ cluster: c.cluster });
    await cache.list(query);
    await Promise.resolve();

    c.fail(new Error('v1 ConfigMap is not served'));
    const waiting = cache.list(query);
    await Promise.resolve();
    c.fail(new Error('v1 ConfigMap is not served'));

    expect((await waiting).map((o) => o.metadata.name)).toEqual(['one']);
    expect(c.calls.list).toBe(1);
  });

  it('our own writes while lists wait for a relist are read back: an apply newer than the list, a delete the list predates', async () => {
    const c = scriptedCluster([cm('a', 'one'), cm('a', 'two')], { relists: true });
    const gets: string[] = [];
    const cache = createLiveStateCache({
      cluster: {
        ...c.cluster,
        apply: async (obj) => ({ ...obj, metadata: { ...obj.metadata, resourceVersion: '9' } }),
        delete: async () => true,
        get: async (ref) => {
          gets.push(ref.name);
          return undefined;
        },
      },
    });
    await cache.list(query);
    await Promise.resolve();

    c.fail(new ClusterError('watch ConfigMap: connection reset', { transient: true }));
    const waiting = cache.list(query);
    await cache.apply(cm('a', 'three', { v: 'mine' }), { dryRun: false, force: true });
    await cache.delete(
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'a', name: 'one' },
      { propagationPolicy: 'Foreground' },
    );
    // The relist was answered before both writes: it has 'one' and not 'three'.
    c.relist([
      { ...cm('a', 'one'), metadata: { namespace: 'a', name: 'one', resourceVersion: '5' } },
      { ...cm('a', 'two'), metadata: { namespace: 'a', name: 'two', resourceVersion: '6' } },
    ]);
    const relisted = await waiting;
    const got = await cache.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'a', name: 'one' });

    expect(relisted.map((o) => o.metadata.name).sort()).toEqual(['three', 'two']);
    expect(relisted.find((o) => o.metadata.name === 'three')?.data).toEqual({ v: 'mine' });
    expect(got).toBeUndefined();
    expect(gets).toEqual(['one', 'one']);
  });

  it('a relist answered after our delete (the object no longer in it) ends its staleness: no GET for it afterwards', async () => {
    const c = scriptedCluster([cm('a', 'one'), cm('a', 'two')], { relists: true });
    const gets: string[] = [];
    const cache = createLiveStateCache({
      cluster: {
        ...c.cluster,
        delete: async () => true,
        get: async (ref) => {
          gets.push(ref.name);
          return undefined;
        },
      },
    });
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'a', name: 'one' };
    await cache.list(query);
    await Promise.resolve();

    await cache.delete(ref, { propagationPolicy: 'Foreground' });
    c.fail(new ClusterError('watch ConfigMap: connection reset', { transient: true }));
    const waiting = cache.list(query);
    c.relist([cm('a', 'two')]);
    const relisted = await waiting;
    const got = await cache.get(ref);

    expect(relisted.map((o) => o.metadata.name)).toEqual(['two']);
    expect(got).toBeUndefined();
    expect(gets).toEqual([]);
  });
});
