/**
 * Lookup of live objects by identity, for pairing targets with live state. Source: gitops-engine
 * `pkg/sync/reconcile.go` and getSyncTasks step "match tasks without a live object"; spec §3.1 steps 1 and 6.
 * A target matches the live object with the same group, kind, namespace and name; a live object without a
 * namespace (cluster-scoped) matches a target of the same group, kind and name whatever the target's namespace
 * (targets get the destination namespace even when cluster-scoped, spec §3.1 step 4).
 */
import { type KubeObject, type ResourceKey, resourceKeyOf } from '../domain/index.js';

export interface LiveObjects {
  /** The live object for this identity, or undefined. */
  find(key: ResourceKey): KubeObject | undefined;
}

/** Index `live` by group/kind/namespace/name (later duplicates win, as a map keyed by identity would). */
export function indexLiveObjects(live: readonly KubeObject[]): LiveObjects {
  const byKey = new Map<string, KubeObject>();
  for (const obj of live) byKey.set(keyString(resourceKeyOf(obj)), obj);
  return {
    find: (key) => byKey.get(keyString(key)) ?? byKey.get(keyString({ ...key, namespace: '' })),
  };
}

function keyString(key: ResourceKey): string {
  return `${key.group}\u0000${key.kind}\u0000${key.namespace}\u0000${key.name}`;
}
