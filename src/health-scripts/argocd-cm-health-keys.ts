/**
 * The health keys of a cluster's own `argocd-cm` (its `resource.customizations` block and the split
 * `resource.customizations.health.<group>_<kind>` / `.useOpenLibs.<group>_<kind>` keys), read without the Lua VM or
 * the settings schemas: a second, narrow face of health-scripts/ for `wavesync sync <path>`, which loads those only
 * when the cluster's argocd-cm (or wavesync.yaml) has a script to run. cluster-argocd-cm.ts parses what this reads.
 */
import type { KubeObject } from '../domain/index.js';
import type { ObjectRef } from '../engine/index.js';

/** What is read of the cluster (the engine's Cluster port has it). */
export interface ConfigMapReader {
  get(ref: ObjectRef): Promise<KubeObject | undefined>;
}

/** Argo CD's namespace, where argocd-cm is read by default (wavesync.yaml `health.clusterArgocdCm.namespace`). */
export const DEFAULT_ARGOCD_NAMESPACE = 'argocd';

const CUSTOMIZATION_KEY = /^resource\.customizations(\.(health|useOpenLibs)\..+)?$/;

/** The reference of `argocd-cm` in `namespace`. */
export function argocdCmRef(namespace: string): ObjectRef {
  return { apiVersion: 'v1', kind: 'ConfigMap', namespace, name: 'argocd-cm' };
}

/** The health keys of argocd-cm's `data` (every other key is Argo CD's, not wavesync's). */
export function argocdCmHealthData(configMap: KubeObject | undefined): Record<string, string> {
  const data = (configMap?.data ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(data).filter(
      (entry): entry is [string, string] => CUSTOMIZATION_KEY.test(entry[0]) && typeof entry[1] === 'string',
    ),
  );
}
