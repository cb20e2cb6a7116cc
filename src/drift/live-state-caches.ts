/**
 * The watch-driven drift check over the live-state cache of each cluster (src/kube/live-state-cache.ts, one per
 * cluster, shared with the diff and resource health; the wiring passes it in): a change to an object some
 * Application tracks (Argo CD's tracking label or annotation; a deletion too, and a change that removes the
 * marker, by the Application it named before) asks for a comparison of that Application `changeDelayMs` later.
 * The Applications named by the changes of that window are gathered into one set and only they are compared, so
 * an out-of-band edit is noticed within seconds instead of at the next interval, and the cost of a change is one
 * Application's comparison, not the fleet's. A change to an object no Application tracks asks for nothing.
 * Comparisons read the caches, so a change-driven check costs no API request.
 */
import type { Application, KubeObject, ResourceTracking } from '../domain/index.js';
import { type Cluster, type ObjectChange, trackingOwnerOf } from '../engine/index.js';

/** A cluster read through a list+watch cache that tells each change it sees after a kind's first list. */
export interface WatchedCluster extends Pick<Cluster, 'listKinds' | 'list'> {
  /** Every change after a kind's first list; `previous` is the copy it replaced or deleted, when there was one. */
  onChange(listener: (change: ObjectChange & { previous?: KubeObject }) => void): () => void;
}

export interface LiveStateCachesOptions {
  /** The cached cluster of an Application's destination (one per cluster). */
  clusterFor(app: Application): WatchedCluster;
  tracking?: ResourceTracking;
  /** Compare these Applications now (the drift runtime's checkApps). */
  check(applications: ReadonlySet<string>): Promise<void>;
  /** ms from a change to its check; default 1000. */
  changeDelayMs?: number;
}

export interface LiveStateCaches {
  /** Listen to the changes of `app`'s cluster (once per cluster), so they ask for checks. */
  watchChangesOf(app: Application): void;
  stop(): void;
}

export function createLiveStateCaches(options: LiveStateCachesOptions): LiveStateCaches {
  const caches = new Map<WatchedCluster, () => void>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  /** The Applications whose objects changed since the last check was asked for. */
  let pending = new Set<string>();
  // A change while a check runs opens the next window: the detector queues an Application's comparison
  // behind the one in progress (which may have read the cache before the change), so none overlap.
  const changed = (application: string) => {
    if (stopped) return;
    pending.add(application);
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      const applications = pending;
      pending = new Set();
      options.check(applications).catch(() => undefined);
    }, options.changeDelayMs ?? 1000);
    timer.unref();
  };
  const ownerOf = (obj: KubeObject | undefined) => obj && trackingOwnerOf(obj, options.tracking)?.application;
  return {
    watchChangesOf(app) {
      const cluster = options.clusterFor(app);
      if (!caches.has(cluster))
        caches.set(
          cluster,
          cluster.onChange((change) => {
            const now = ownerOf(change.object);
            const before = ownerOf(change.previous);
            if (now) changed(now);
            if (before && before !== now) changed(before);
          }),
        );
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
