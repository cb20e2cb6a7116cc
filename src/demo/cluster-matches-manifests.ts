/**
 * After a sync: what of the manifests does the cluster hold? Each non-hook target object is looked up in the
 * Application's destination namespace (when it names none; cluster-scoped kinds have none) and compared on the
 * manifest's labels. Hooks are checked through the thread: their delete policy may have removed them.
 */

import type { Cluster, SourcedObject } from '../engine/index.js';
import { isHook } from '../engine/index.js';

export interface TargetPresence {
  /** `Kind/name` of targets that are live with the manifest's labels. */
  present: string[];
  /** Why each other target does not match: missing, or a label differs. */
  problems: string[];
}

export async function targetPresence(
  cluster: Cluster,
  targets: readonly SourcedObject[],
  namespace: string,
): Promise<TargetPresence> {
  const result: TargetPresence = { present: [], problems: [] };
  for (const { object } of targets) {
    if (isHook(object)) continue;
    const info = await cluster.discover(object.apiVersion, object.kind);
    const ns = info?.namespaced === false ? '' : (object.metadata.namespace ?? namespace);
    const name = `${object.kind}/${object.metadata.name ?? ''}`;
    const live = await cluster.get({
      apiVersion: object.apiVersion,
      kind: object.kind,
      namespace: ns,
      name: object.metadata.name ?? '',
    });
    if (!live) {
      result.problems.push(`${name} is not in namespace ${ns || '(cluster)'}`);
      continue;
    }
    const wrong = Object.entries(object.metadata.labels ?? {}).filter(
      ([k, v]) => live.metadata.labels?.[k] !== v,
    );
    if (wrong.length)
      result.problems.push(`${name}: label ${wrong.map(([k, v]) => `${k}=${v}`).join(', ')} differs`);
    else result.present.push(name);
  }
  return result;
}
