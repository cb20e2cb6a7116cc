import { describe, expect, it } from 'vitest';
import { FakeCluster } from '../../test/fakes/fake-cluster.js';
import type { ObjectChange, WatchTarget } from './cluster.js';
import { LiveCache } from './live-cache.js';

/** A FakeCluster that records every watch it is asked to start. */
class WatchRecordingCluster extends FakeCluster {
  readonly started: WatchTarget[][] = [];

  override watch(targets: readonly WatchTarget[], onChange: (change: ObjectChange) => void) {
    this.started.push([...targets]);
    return super.watch(targets, onChange);
  }
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
});
