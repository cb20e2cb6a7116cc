import { describe, expect, it } from 'vitest';
import type { KubeObject } from './kube-object.js';
import { ObjectStore, type StoreEvent } from './object-store.js';

const cm = (namespace: string, name: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, ...extra },
});

describe('sim/store/object-store', () => {
  it('lists one namespace or all, sorted by namespace then name', () => {
    const store = new ObjectStore();
    for (const [ns, name] of [
      ['b', 'y'],
      ['a', 'z'],
      ['b', 'x'],
      ['a', 'w'],
    ] as const)
      store.put('/configmaps', cm(ns, name));

    expect(store.list('/configmaps', 'b').map((o) => o.metadata.name)).toEqual(['x', 'y']);
    expect(store.list('/configmaps').map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual([
      'a/w',
      'a/z',
      'b/x',
      'b/y',
    ]);
    store.remove('/configmaps', 'a', 'w');
    store.remove('/configmaps', 'a', 'z');
    expect(store.list('/configmaps', 'a')).toEqual([]);
    expect(store.typeKeys()).toEqual(['/configmaps']);
  });

  it('finds objects by uid and dependents by owner uid, following updates and removals', () => {
    const store = new ObjectStore();
    store.put('/configmaps', cm('a', 'owner', { uid: 'u-owner' }));
    const owned = {
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u-owner' }],
    };
    store.put('/configmaps', cm('a', 'dep-1', { uid: 'u-1', ...owned }));
    store.put('/secrets', { ...cm('a', 'dep-2', { uid: 'u-2', ...owned }), kind: 'Secret' });

    expect(store.findByUid('u-owner')?.metadata.name).toBe('owner');
    expect(store.dependentsOf('u-owner').map((o) => o.metadata.name)).toEqual(['dep-1', 'dep-2']);
    store.put('/configmaps', cm('a', 'dep-1', { uid: 'u-1' }));
    store.remove('/configmaps', 'a', 'owner');

    expect(store.dependentsOf('u-owner').map((o) => o.metadata.name)).toEqual(['dep-2']);
    expect(store.findByUid('u-owner')).toBeUndefined();
  });

  it('replays the events after a resourceVersion, and answers expired once the history is gone', () => {
    const store = new ObjectStore(3);
    const start = store.resourceVersion;
    for (let i = 0; i < 5; i++) store.put('/configmaps', cm('a', `cm-${i}`));

    expect(store.eventsSince(start + 3)).toMatchObject([
      { resourceVersion: start + 4 },
      { resourceVersion: start + 5 },
    ]);
    expect(store.eventsSince(start)).toBe('expired');
    const deleted = store.remove('/configmaps', 'a', 'cm-4');
    const since = store.eventsSince(start + 4) as readonly StoreEvent[];
    // The DELETED event carries a new resourceVersion without changing the earlier event's object.
    expect(since.map((e) => [e.type, e.object.metadata.resourceVersion])).toEqual([
      ['ADDED', String(start + 5)],
      ['DELETED', deleted?.metadata.resourceVersion],
    ]);
  });

  it('gives each listener its own copy, and type subscribers only their type', () => {
    const store = new ObjectStore();
    const seen: string[] = [];
    store.subscribe((e) => {
      e.object.metadata.name = 'changed by a listener';
    });
    store.subscribe((e) => seen.push(`all:${e.object.metadata.name}`));
    store.subscribeType('/secrets', (e) => seen.push(`secrets:${e.object.metadata.name}`));

    store.put('/configmaps', cm('a', 'one'));
    store.put('/secrets', { ...cm('a', 'two'), kind: 'Secret' });

    expect(seen).toEqual(['all:one', 'secrets:two', 'all:two']);
    expect(store.get('/configmaps', 'a', 'one')?.metadata.name).toBe('one');
  });
});
