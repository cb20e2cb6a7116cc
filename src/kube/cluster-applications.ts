/**
 * The Application (or ApplicationSet) objects of a `cluster:` source of wavesync.yaml `applications:`: argoproj.io/v1alpha1
 * Application in a namespace, read with the kubeconfig (KUBECONFIG or ~/.kube/config, as for syncs) at the given
 * context. Failures propagate as ClusterError (404 when the cluster has no Application CRD); the loader is lenient
 * with them (src/applications/load-application-sources.ts).
 */
import type { KubeObject } from '../domain/index.js';
import { loadKubeConfig } from './load-kube-config.js';
import { createRetryingKubeCluster } from './retrying-cluster.js';

/** A lister for `applicationsFromSettings(…, { clusterApplications })`; `kubeconfig` undefined = the default. */
export function clusterApplicationsLister(kubeconfig: string | undefined) {
  return async (source: {
    namespace: string;
    context: string | undefined;
    kind?: 'Application' | 'ApplicationSet';
  }): Promise<KubeObject[]> => {
    const kc = loadKubeConfig({
      ...(kubeconfig ? { kubeconfig } : {}),
      ...(source.context ? { context: source.context } : {}),
    });
    const query = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: source.kind ?? 'Application',
      namespace: source.namespace,
    };
    return createRetryingKubeCluster(kc).list(query);
  };
}
