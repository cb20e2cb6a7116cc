/**
 * loadKubeConfig — the KubeConfig for a CLI or worker: an explicit file, else client-node's default chain
 * (`$KUBECONFIG`, `~/.kube/config`, in-cluster service account); optionally switching to a named context.
 * Throws BotError('invalid_config') naming the file or the unknown context.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { BotError } from '../domain/index.js';

export interface KubeConfigSource {
  /** Path of a kubeconfig file. */
  kubeconfig?: string;
  /** Context to use instead of the file's current-context. */
  context?: string;
}

export function loadKubeConfig(source: KubeConfigSource = {}): KubeConfig {
  const kc = new KubeConfig();
  try {
    if (source.kubeconfig) kc.loadFromFile(source.kubeconfig);
    else kc.loadFromDefault();
  } catch (error) {
    const where = source.kubeconfig ?? 'the default kubeconfig';
    throw new BotError('invalid_config', `cannot load ${where}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (source.context) {
    if (!kc.getContextObject(source.context)) {
      const known = kc.getContexts().map((c) => c.name);
      throw new BotError(
        'invalid_config',
        `no context "${source.context}" in kubeconfig (has: ${known.join(', ')})`,
      );
    }
    kc.setCurrentContext(source.context);
  }
  if (!kc.getCurrentCluster()) throw new BotError('invalid_config', 'the kubeconfig has no current cluster');
  if (!source.kubeconfig && isClientNodeFallback(kc)) {
    throw new BotError(
      'invalid_config',
      'no kubeconfig found ($KUBECONFIG is not set, ~/.kube/config does not exist, not running in a cluster)',
      {
        fix:
          'pass --kubeconfig <file> or set KUBECONFIG; to try wavesync without a cluster, start one with ' +
          '`wavesync cluster-sim --kubeconfig-out ./kubeconfig` and pass --kubeconfig ./kubeconfig',
      },
    );
  }
  return kc;
}

/**
 * True for what client-node's loadFromDefault builds when it finds no kubeconfig and no service account: a
 * cluster named "cluster" at http://localhost:8080 with a user named "user" and no credentials (client-node 1.x
 * config.js). Every request to it fails with "HTTP protocol is not allowed when skipTLSVerify is not set".
 */
function isClientNodeFallback(kc: KubeConfig): boolean {
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  return (
    kc.getClusters().length === 1 &&
    cluster?.name === 'cluster' &&
    cluster.server === 'http://localhost:8080' &&
    user?.name === 'user' &&
    !user.token &&
    !user.certData &&
    !user.exec
  );
}

/** The namespace of the current context, or `default`. */
export function contextNamespaceOf(kc: KubeConfig): string {
  return kc.getContextObject(kc.getCurrentContext())?.namespace || 'default';
}
