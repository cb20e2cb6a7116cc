/**
 * One live-state cache per cluster for drift detection (./live-state-cache.ts), and the watch-driven check: a
 * change to an object some Application tracks (Argo CD's tracking label or annotation) asks for a comparison
 * `changeDelayMs` later (changes in that window are gathered into one), so an out-of-band edit is noticed within
 * seconds instead of at the next interval. Comparisons read the caches, so a change-driven check costs no API
 * request.
 */
import type { Application, ResourceTracking } from '../domain/index.js';
import { type Cluster, trackingOwnerOf } from '../engine/index.js';
import { createLiveStateCache, type LiveStateCache, type LiveStateCacheOptions } from './live-state-cache.js';

export interface LiveStateCachesOptions {
  /** The cluster of an Application's destination (createClusterProvider: one per cluster). */
  clusterFor(app: Application): Pick<Cluster, 'listKinds' | 'list' | 'watch'>;
  tracking?: ResourceTracking;
  /** Compare now (the drift runtime's tick). */
  check(): Promise<void>;
  /** ms from a change to its check; default 1000. */
  changeDelayMs?: number;
  cache?: Omit<LiveStateCacheOptions, 'cluster' | 'onChange'>;
}

export interface LiveStateCaches {
  clusterFor(app: Application): LiveStateCache;
  stop(): void;
}

export function createLiveStateCaches(options: LiveStateCachesOptions): LiveStateCaches {
  const caches = new Map<object, LiveStateCache>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let checking = false;
  /** A change arrived while a check ran (it may have read the cache before it): check once more after it. */
  let dirty = false;
  const changed = () => {
    if (checking) dirty = true;
    if (timer || stopped || checking) return;
    timer = setTimeout(() => {
      timer = undefined;
      checking = true;
      void options
        .check()
        .catch(() => undefined)
        .finally(() => {
          checking = false;
          if (dirty) {
            dirty = false;
            changed();
          }
        });
    }, options.changeDelayMs ?? 1000);
    timer.unref();
  };
  return {
    clusterFor(app) {
      const cluster = options.clusterFor(app);
      let cache = caches.get(cluster);
      if (!cache) {
        cache = createLiveStateCache({
          ...options.cache,
          cluster,
          onChange: (change) => {
            if (trackingOwnerOf(change.object, options.tracking)) changed();
          },
        });
        caches.set(cluster, cache);
      }
      return cache;
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      for (const cache of caches.values()) cache.stop();
      caches.clear();
    },
  };
}
