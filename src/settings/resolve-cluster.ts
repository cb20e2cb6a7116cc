/**
 * Map an Application's `spec.destination` to the kubeconfig context it syncs to, through `clusters:` in
 * wavesync.yaml. Argo CD identifies a cluster by server URL or by name (spec.destination takes one of them).
 */
import type { ApplicationDestination } from '../domain/index.js';
import { BotError } from '../domain/index.js';
import { resolveSettingsPath } from './load-settings.js';
import type { Settings } from './settings-schema.js';

export interface ClusterTarget {
  /** kubeconfig context; undefined → the current context. */
  context: string | undefined;
  /** Absolute kubeconfig file; undefined → KUBECONFIG / ~/.kube/config. */
  kubeconfig: string | undefined;
}

/**
 * The context for `destination`. With no `clusters:` configured every destination uses the current context.
 * @throws BotError('invalid_config') when clusters are configured and none matches the destination.
 */
export function resolveCluster(
  settings: Pick<Settings, 'clusters' | 'baseDir'>,
  destination: ApplicationDestination,
): ClusterTarget {
  if (settings.clusters.length === 0) return { context: undefined, kubeconfig: undefined };
  const match = settings.clusters.find((c) =>
    destination.server !== undefined ? c.server === destination.server : c.name === destination.name,
  );
  if (!match) {
    const wanted =
      destination.server !== undefined
        ? `server ${destination.server}`
        : `name ${destination.name ?? '(none)'}`;
    const known = settings.clusters.map((c) => c.server ?? c.name).join(', ');
    throw new BotError(
      'invalid_config',
      `no cluster in wavesync.yaml clusters matches destination ${wanted} (known: ${known})`,
    );
  }
  const kubeconfig =
    match.kubeconfig === undefined ? undefined : resolveSettingsPath(settings, match.kubeconfig);
  return { context: match.context, kubeconfig };
}
