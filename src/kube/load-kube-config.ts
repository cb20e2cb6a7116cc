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
  return kc;
}

/** The namespace of the current context, or `default`. */
export function contextNamespaceOf(kc: KubeConfig): string {
  return kc.getContextObject(kc.getCurrentContext())?.namespace || 'default';
}
