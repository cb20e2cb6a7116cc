/**
 * Lookup of live objects by identity, for pairing targets with live state. Source: gitops-engine
 * `pkg/sync/reconcile.go` and getSyncTasks step "match tasks without a live object"; spec §3.1 steps 1 and 6.
 * A target matches the live object with the same group, kind, namespace and name; a live object without a
 * namespace (cluster-scoped) matches a target of the same group, kind and name whatever the target's namespace
 * (targets get the destination namespace even when cluster-scoped, spec §3.1 step 4).
 */
import type { KubeObject } from '../../domain/index.js';
import { ITEMS_PER_YIELD, type SlicedWork } from '../time-slice.js';
import { apiVersionParts } from './api-version-parts.js';

export interface LiveObjects {
  /** The live object with the identity of `target`, or undefined. */
  find(target: KubeObject): KubeObject | undefined;
}

/**
 * Index `live` by identity (when two share one, the later wins, as in a map keyed by identity), as SlicedWork
 * (yields every ITEMS_PER_YIELD objects).
 */
export function* liveObjectIndexSteps(live: readonly KubeObject[]): SlicedWork<LiveObjects> {
  if (live.length === 0) return { find: () => undefined };
  // Keyed by name (a string whose hash is cached); the few objects sharing a name are compared field by field.
  const byName = new Map<string, KubeObject[]>();
  let count = 0;
  for (const obj of live) {
    if (++count % ITEMS_PER_YIELD === 0) yield;
    const name = obj.metadata.name ?? '';
    const same = byName.get(name);
    if (same === undefined) byName.set(name, [obj]);
    else same.push(obj);
  }
  return { find: (target) => findIn(byName.get(target.metadata.name ?? ''), target) };
}

function findIn(candidates: readonly KubeObject[] | undefined, target: KubeObject): KubeObject | undefined {
  if (candidates === undefined) return undefined;
  const group = apiVersionParts(target.apiVersion).group;
  const namespace = target.metadata.namespace ?? '';
  let clusterScoped: KubeObject | undefined;
  for (let i = candidates.length - 1; i >= 0; i--) {
    const live = candidates[i]!;
    if (live.kind !== target.kind || apiVersionParts(live.apiVersion).group !== group) continue;
    const liveNamespace = live.metadata.namespace ?? '';
    if (liveNamespace === namespace) return live;
    if (liveNamespace === '') clusterScoped ??= live;
  }
  return clusterScoped;
}
