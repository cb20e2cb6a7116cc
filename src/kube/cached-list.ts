/**
 * A list read from a live-state cache's copy of a kind (live-state-cache.ts): a namespace's or every namespace's
 * objects, or (`trackedBy`) those the Application's tracking index holds, read in time slices, each as our own newer
 * write when we wrote it since, with the objects we wrote that the watch has not reported yet, and without those we
 * deleted meanwhile.
 */
import type { KubeObject } from '../domain/index.js';
import { refOf, TimeSlice } from '../engine/index.js';
import type { KindCopies } from './kind-copies.js';
import { type KindState, keyOf, type ListQuery } from './live-state-kinds.js';
import type { OwnWrites } from './own-writes.js';

/** `query` (without a labelSelector) answered from `state`, the kind's complete copy. */
export async function listCopy(
  state: KindState,
  query: ListQuery,
  writes: OwnWrites,
  copies: KindCopies,
  sliceMs: number | undefined,
): Promise<KubeObject[]> {
  const found: KubeObject[] = [];
  /** The keys of a trackedBy list's objects found in the index. */
  const indexed = new Set<string>();
  // The copies are read in time slices (an Application's 50,000 objects were ~0.2 s in one piece, for drift in
  // the bot and the diff in serve's worker thread): the refs are taken now, each object as it is when read (one
  // deleted meanwhile is left out).
  const slice = new TimeSlice(sliceMs);
  if (query.trackedBy !== undefined) {
    for (const obj of [...(state.byOwner.get(query.trackedBy)?.values() ?? [])]) {
      if (slice.due()) await slice.pause();
      if (!query.namespace || (obj.metadata.namespace ?? '') === query.namespace) {
        const ref = refOf(obj);
        indexed.add(keyOf(ref));
        const now = writes.current(state, ref);
        if (now) found.push(now);
      }
    }
  } else {
    const namespaces = query.namespace ? [query.namespace] : [...state.objects.keys()];
    for (const namespace of namespaces)
      for (const name of [...(state.objects.get(namespace)?.keys() ?? [])]) {
        if (slice.due()) await slice.pause();
        const now = writes.current(state, { ...query, namespace, name });
        if (now) found.push(now);
      }
  }
  // Objects we wrote that the watch has not reported yet: created, or (for a trackedBy list) marked as the
  // Application's by our write while the cached copy is not.
  for (const mine of writes.written.values()) {
    const ref = refOf(mine);
    if (ref.apiVersion !== query.apiVersion || ref.kind !== query.kind) continue;
    if (query.namespace && ref.namespace !== query.namespace) continue;
    if (query.trackedBy === undefined) {
      if (!state.objects.get(ref.namespace)?.has(ref.name)) found.push(mine);
    } else if (!indexed.has(keyOf(ref)) && copies.ownersOf(mine).includes(query.trackedBy)) {
      // current(): the cached copy, when the watch has caught up with our write meanwhile.
      found.push(writes.current(state, ref)!);
    }
  }
  return writes.stale.size === 0 ? found : writes.withoutStale(found);
}
