import { describe, expect, it } from 'vitest';
import { FakeCluster } from '../../test/fakes/fake-cluster.js';
import type { KubeObject } from '../domain/index.js';
import type { ObjectChange, WatchTarget } from './cluster.js';
import { LiveCache } from './live-cache.js';

/** A FakeCluster that records every watch it is asked to start; its lists say they were read at version 42. */
class WatchRecordingCluster extends FakeCluster {
  readonly started: WatchTarget[][] = [];
  onChange: ((change: ObjectChange) => void) | undefined;

  override watch(targets: readonly WatchTarget[], onChange: (change: ObjectChange) => void) {
    this.started.push([...targets]);
    this.onChange = onChange;
    return super.watch(targets, onChange);
  }

  override async list(query: Parameters<FakeCluster['list']>[0] & { listedAt?(version: string): void }) {
    const items = await super.list(query);
    query.listedAt?.('42');
    return items;
  }
}

function configMap(name: string, resourceVersion: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'app', resourceVersion },
    data: { v: resourceVersion },
  };
}

const configMaps: WatchTarget = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'app' };
const secrets: WatchTarget = { apiVersion: 'v1', kind: 'Secret', namespace: 'app' };

describe('src/engine/live-cache', () => {
  it('opens one watch per collection however often the targets name it (one per task)', () => {
    const cluster = new WatchRecordingCluster();
    const cache = new LiveCache(cluster, () => {});

    cache.watch([configMaps, { ...configMaps }, secrets, { ...configMaps }, { ...secrets }]);
    cache.watch([{ ...configMaps }, { ...secrets }]);

    expect(cluster.started).toEqual([[configMaps, secrets]]);
    cache.stop();
  });

  it('adds a watch only for collections not watched yet', () => {
    const cluster = new WatchRecordingCluster();
    const cache = new LiveCache(cluster, () => {});

    cache.watch([configMaps]);
    cache.watch([configMaps, secrets, secrets]);

    expect(cluster.started).toEqual([[configMaps], [secrets]]);
    cache.stop();
  });

  it('watches a collection it listed from that list, and the others from scratch; after invalidate() from scratch', async () => {
    const cluster = new WatchRecordingCluster();
    const cache = new LiveCache(cluster, () => {});
    await cache.readCollection(configMaps);

    cache.watch([configMaps, secrets]);
    expect(cluster.started).toEqual([[{ ...configMaps, resourceVersion: '42' }, secrets]]);

    const later = new LiveCache(cluster, () => {});
    await later.readCollection(configMaps);
    later.invalidate();
    later.watch([configMaps]);
    expect(cluster.started.at(-1)).toEqual([configMaps]);
    cache.stop();
    later.stop();
  });

  it('keeps the copy it holds when a watch or list brings the same version again, and takes a newer one', async () => {
    const cluster = new WatchRecordingCluster();
    const cache = new LiveCache(cluster, () => {});
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'app', name: 'a' };
    const written = configMap('a', '7');
    cache.put(ref, written);
    cache.watch([configMaps]);

    cluster.onChange?.({ type: 'ADDED', object: configMap('a', '7') });
    expect(await cache.get(ref)).toBe(written);
    const newer = configMap('a', '8');
    cluster.onChange?.({ type: 'MODIFIED', object: newer });
    expect(await cache.get(ref)).toBe(newer);
    cache.stop();
  });

  it('shares the copy it holds with another read of the same version, not of another one', () => {
    const cache = new LiveCache(new FakeCluster(), () => {});
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'app', name: 'a' };
    const held = configMap('a', '7');
    cache.put(ref, held);

    expect(cache.shared(configMap('a', '7'))).toBe(held);
    const other = configMap('a', '8');
    expect(cache.shared(other)).toBe(other);
    const unversioned = { ...configMap('a', '7'), metadata: { name: 'a', namespace: 'app' } };
    expect(cache.shared(unversioned)).toBe(unversioned);
  });

  it('hands back the copy it holds for a write answered at the same version (nothing changed), else the answer', () => {
    const cache = new LiveCache(new FakeCluster(), () => {});
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'app', name: 'a' };
    const listed = configMap('a', '7');
    expect(cache.put(ref, listed)).toBe(listed);

    expect(cache.put(ref, configMap('a', '7'))).toBe(listed);
    const changed = configMap('a', '9');
    expect(cache.put(ref, changed)).toBe(changed);
    expect(cache.shared(configMap('a', '9'))).toBe(changed);
    expect(cache.put(ref, undefined)).toBeUndefined();
  });
});
