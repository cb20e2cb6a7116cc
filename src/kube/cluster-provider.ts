/**
 * createClusterProvider — one Cluster per kubeconfig context, built on first use: an Application's
 * `spec.destination` is mapped to a context through `clusters:` in wavesync.yaml (resolveCluster); with no
 * `clusters:` every Application syncs to the current context of KUBECONFIG / ~/.kube/config / in-cluster.
 */

import type { Application } from '../domain/index.js';
import type { Settings } from '../settings/index.js';
import { resolveCluster } from '../settings/index.js';
import type { KubeConfig } from './client-node.js';
import { loadKubeConfig } from './load-kube-config.js';

export interface ClusterProviderDeps<ClusterT> {
  settings: Pick<Settings, 'clusters' | 'baseDir'>;
  /** KUBECONFIG from the environment; a ':'-separated list is left to client-node's default chain. */
  kubeconfig: string | undefined;
  /** Builds the adapter for a loaded KubeConfig (src/kube createKubeCluster). */
  createCluster(kc: KubeConfig): ClusterT;
}

/** Returns `clusterFor(app)`. Throws BotError('invalid_config') for an unmapped destination or unknown context. */
export function createClusterProvider<ClusterT>(
  deps: ClusterProviderDeps<ClusterT>,
): (app: Application) => ClusterT {
  const clusters = new Map<string, ClusterT>();
  const fromEnv = deps.kubeconfig?.includes(':') ? undefined : deps.kubeconfig;
  return (app) => {
    const target = resolveCluster(deps.settings, app.destination);
    const kubeconfig = target.kubeconfig ?? fromEnv;
    const key = `${kubeconfig ?? '(default)'}#${target.context ?? ''}`;
    const cached = clusters.get(key);
    if (cached) return cached;
    const kc = loadKubeConfig({
      ...(kubeconfig ? { kubeconfig } : {}),
      ...(target.context ? { context: target.context } : {}),
    });
    const cluster = deps.createCluster(kc);
    clusters.set(key, cluster);
    return cluster;
  };
}
