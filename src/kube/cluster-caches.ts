/**
 * createClusterCaches — one live-state cache per cluster (src/kube/live-state-cache.ts) for a process, built on
 * first use through the same `clusters:` mapping as createClusterProvider. Everything in the process that reads
 * the cluster takes its Cluster from here, so drift, `/sync diff`, resource health and the engine's reads and
 * waits share one list+watch per kind.
 *
 * `clusterFor(app)` is the cache, except for an Application whose `ignoreDifferences` name
 * `managedFieldsManagers`: the cache keeps no managedFields (its memory bound), so that Application's reads go to
 * the API server (the retrying cluster) and are exact.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Application } from '../domain/index.js';
import { type Cluster, ignoreDifferencesOf, trackedKinds } from '../engine/index.js';
import type { Settings } from '../settings/index.js';
import { createClusterProvider } from './cluster-provider.js';
import { createLiveStateCache, type LiveStateCache, type LiveStateCacheOptions } from './live-state-cache.js';

export interface ClusterCachesDeps {
  settings: Pick<Settings, 'clusters' | 'baseDir'> & Partial<Pick<Settings, 'resourceTracking'>>;
  kubeconfig: string | undefined;
  /** The adapter the cache reads and writes through (createRetryingKubeCluster). */
  createCluster(kc: KubeConfig): Cluster;
  cache?: Omit<LiveStateCacheOptions, 'cluster'>;
}

export interface ClusterCaches {
  /** The live-state cache of the Application's destination cluster. */
  cacheFor(app: Application): LiveStateCache;
  /** What the Application's reads and writes go through: its cluster's cache, or the cluster (see above). */
  clusterFor(app: Application): Cluster;
  /**
   * Start the list+watch of every kind a sync looks for tracked objects in, on the cluster of each of `apps` (once
   * per cluster), so that a worker's first syncs read memory as its later ones do (Argo CD's controller syncs its
   * cluster caches at start the same way). Resolves once started (not listed); what fails is told to `onError` and
   * left to the first read (which reads through, with the API server's error).
   */
  prime(apps: readonly Application[], onError?: (error: unknown) => void): Promise<void>;
  /** Stops every cache's watches. */
  stop(): void;
}

/** True when the Application's ignoreDifferences read the live objects' managedFields. */
function readsManagedFields(app: Pick<Application, 'manifest'>): boolean {
  return ignoreDifferencesOf(app).rules.some((rule) => rule.managedFieldsManagers.length > 0);
}

export function createClusterCaches(deps: ClusterCachesDeps): ClusterCaches {
  const caches: LiveStateCache[] = [];
  const provider = createClusterProvider({
    settings: deps.settings,
    kubeconfig: deps.kubeconfig,
    createCluster: (kc) => {
      const direct = deps.createCluster(kc);
      const labelKey = deps.settings.resourceTracking?.labelKey;
      const cache = createLiveStateCache({
        ...deps.cache,
        ...(labelKey ? { trackingLabelKey: labelKey } : {}),
        cluster: direct,
      });
      caches.push(cache);
      return { direct, cache };
    },
  });
  return {
    cacheFor: (app) => provider(app).cache,
    clusterFor(app) {
      const { direct, cache } = provider(app);
      return readsManagedFields(app) ? direct : cache;
    },
    async prime(apps, onError) {
      const primed = new Set<LiveStateCache>();
      for (const app of apps) {
        try {
          primed.add(provider(app).cache);
        } catch (error) {
          onError?.(error);
        }
      }
      await Promise.all(
        [...primed].map(async (cache) => {
          try {
            cache.prime(trackedKinds(await cache.listKinds()));
          } catch (error) {
            onError?.(error);
          }
        }),
      );
    },
    stop() {
      for (const cache of caches) cache.stop();
    },
  };
}
