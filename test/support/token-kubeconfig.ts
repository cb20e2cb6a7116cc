import { KubeConfig } from '@kubernetes/client-node';

/** A KubeConfig for `server` (plain HTTP allowed via skipTLSVerify, a bearer token user, namespace default). */
export function kubeConfigFor(server: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server, skipTLSVerify: true }],
    users: [{ name: 'u', token: 'secret-token' }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u', namespace: 'default' }],
    currentContext: 'ctx',
  });
  return kc;
}
