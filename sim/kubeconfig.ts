/**
 * The kubeconfig that points a client at the simulator: plain http on loopback, so it sets
 * `insecure-skip-tls-verify: true` (client-node 1.x refuses http without it), and a dummy bearer token.
 */
import { stringify } from 'yaml';

export interface KubeconfigOptions {
  /** Default namespace of the context (default: `default`). */
  namespace?: string;
  /** Name used for the cluster, user and context (default: `wavesync-sim`). */
  name?: string;
  /** The user's bearer token (default `wavesync-sim-token`): the request log (`user`) tells clients apart by it. */
  token?: string;
}

export function buildKubeconfig(url: string, options: KubeconfigOptions = {}): string {
  const name = options.name ?? 'wavesync-sim';
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server: url, 'insecure-skip-tls-verify': true } }],
    users: [{ name, user: { token: options.token ?? 'wavesync-sim-token' } }],
    contexts: [{ name, context: { cluster: name, user: name, namespace: options.namespace ?? 'default' } }],
    'current-context': name,
    preferences: {},
  });
}
