/**
 * The watch-driven drift check over the live-state cache of each cluster (src/kube/live-state-cache.ts, one per
 * cluster, shared with the diff and resource health; the wiring passes it in): a change to an object some
 * Application tracks (Argo CD's tracking label or annotation) asks for a comparison `changeDelayMs` later (changes
 * in that window are gathered into one), so an out-of-band edit is noticed within seconds instead of at the next
 * interval. Comparisons read the caches, so a change-driven check costs no API request.
 */
import type { Application, ResourceTracking } from '../domain/index.js';
import { type Cluster, type ObjectChange, trackingOwnerOf } from '../engine/index.js';

/** A cluster read through a list+watch cache that tells each change it sees after a kind's first list. */
export interface WatchedCluster extends Pick<Cluster, 'listKinds' | 'list'> {
  onChange(listener: (change: ObjectChange) => void): () => void;
}

export interface LiveStateCachesOptions {
  /** The cached cluster of an Application's destination (one per cluster). */
  clusterFor(app: Application): WatchedCluster;
  tracking?: ResourceTracking;
  /** Compare now (the drift runtime's tick). */
  check(): Promise<void>;
  /** ms from a change to its check; default 1000. */
  changeDelayMs?: number;
}

export interface LiveStateCaches {
  clusterFor(app: Application): WatchedCluster;
  stop(): void;
}

export function createLiveStateCaches(options: LiveStateCachesOptions): LiveStateCaches {
  const caches = new Map<WatchedCluster, () => void>();
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
      if (!caches.has(cluster))
        caches.set(
          cluster,
          cluster.onChange((change) => {
            if (trackingOwnerOf(change.object, options.tracking)) changed();
          }),
        );
      return cluster;
    },
    /** Stops listening (the caches belong to the wiring, which stops them). */
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      for (const unsubscribe of caches.values()) unsubscribe();
      caches.clear();
    },
  };
}
