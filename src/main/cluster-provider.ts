/**
 * createClusterProvider — one Cluster per kubeconfig context, built on first use: an Application's
 * `spec.destination` is mapped to a context through `clusters:` in wavesync.yaml (resolveCluster); with no
 * `clusters:` every Application syncs to the current context of KUBECONFIG / ~/.kube/config.
 */
import { KubeConfig } from '@kubernetes/client-node';
import type { Application } from '../domain/index.js';
import { BotError } from '../domain/index.js';
import type { Settings } from '../settings/index.js';
import { resolveCluster } from '../settings/index.js';

export interface ClusterProviderDeps<ClusterT> {
  settings: Pick<Settings, 'clusters' | 'baseDir'>;
  /** The kubeconfig file(s) from the environment (`KUBECONFIG`); undefined → ~/.kube/config. */
  kubeconfig: string | undefined;
  /** Builds the adapter for a loaded KubeConfig (src/kube createKubeCluster). */
  createCluster(kc: KubeConfig): ClusterT;
}

/** Returns `clusterFor(app)`. Throws BotError('invalid_config') for an unmapped destination or unknown context. */
export function createClusterProvider<ClusterT>(
  deps: ClusterProviderDeps<ClusterT>,
): (app: Application) => ClusterT {
  const clusters = new Map<string, ClusterT>();
  return (app) => {
    const target = resolveCluster(deps.settings, app.destination);
    const file = target.kubeconfig ?? deps.kubeconfig;
    const key = `${file ?? '~/.kube/config'}#${target.context ?? ''}`;
    const cached = clusters.get(key);
    if (cached) return cached;
    const cluster = deps.createCluster(loadKubeConfig(file, target.context));
    clusters.set(key, cluster);
    return cluster;
  };
}

/** Load `file` (':'-separated list as kubectl reads KUBECONFIG; undefined → defaults) and select `context`. */
export function loadKubeConfig(file: string | undefined, context: string | undefined): KubeConfig {
  const kc = new KubeConfig();
  const files = (file ?? '').split(':').filter((f) => f !== '');
  try {
    if (files.length === 0) kc.loadFromDefault();
    for (const f of files) {
      const next = new KubeConfig();
      next.loadFromFile(f);
      kc.mergeConfig(next);
      if (!kc.getCurrentContext()) kc.setCurrentContext(next.getCurrentContext());
    }
  } catch (error) {
    throw new BotError(
      'invalid_config',
      `cannot read kubeconfig ${files.join(':') || '(default)'}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  if (context !== undefined) {
    if (!kc.getContextObject(context)) {
      throw new BotError(
        'invalid_config',
        `kubeconfig has no context "${context}" (wavesync.yaml clusters:)`,
      );
    }
    kc.setCurrentContext(context);
  }
  return kc;
}
