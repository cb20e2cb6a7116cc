/**
 * The objects a live-state cache keeps (live-state-cache.ts), per kind: by namespace and name, and indexed by the
 * Application their tracking annotation or label names (a `trackedBy` list reads only that Application's objects),
 * each without `metadata.managedFields` (slim); and how many are kept, all kinds together (the cache's bound).
 */
import { Annotations, type KubeObject } from '../domain/index.js';
import type { KindState } from './live-state-kinds.js';

export class KindCopies {
  /** Objects kept, all kinds together (a copy being built is counted when it is put in). */
  total = 0;
  private readonly labelKey: string;

  /** `labelKey`: the tracking label key (wavesync.yaml `resourceTracking.labelKey`). */
  constructor(labelKey: string) {
    this.labelKey = labelKey;
  }

  /** The Applications an object's markers name (either marker: callers decide which one counts). */
  ownersOf(obj: KubeObject): string[] {
    const owners: string[] = [];
    const id = obj.metadata.annotations?.[Annotations.trackingId];
    if (typeof id === 'string') {
      const colon = id.indexOf(':');
      if (colon > 0) owners.push(id.slice(0, colon));
    }
    const label = obj.metadata.labels?.[this.labelKey];
    if (typeof label === 'string' && label !== '' && label !== owners[0]) owners.push(label);
    return owners;
  }

  private index(state: KindState, obj: KubeObject, add: boolean): void {
    const key = `${obj.metadata.namespace ?? ''}|${obj.metadata.name ?? ''}`;
    for (const owner of this.ownersOf(obj)) {
      const objects = state.byOwner.get(owner);
      if (add) {
        if (objects) objects.set(key, obj);
        else state.byOwner.set(owner, new Map([[key, obj]]));
      } else if (objects?.delete(key) && objects.size === 0) state.byOwner.delete(owner);
    }
  }

  /** Keep `obj` in `state`'s copy; `counted` false for a copy being built (onListed), counted when it is put in. */
  set(state: KindState, obj: KubeObject, counted = true): void {
    const namespace = obj.metadata.namespace ?? '';
    let names = state.objects.get(namespace);
    if (!names) {
      names = new Map();
      state.objects.set(namespace, names);
    }
    const name = obj.metadata.name ?? '';
    const previous = names.get(name);
    if (previous) this.index(state, previous, false);
    else {
      state.size++;
      if (counted) this.total++;
    }
    const kept = slim(obj);
    names.set(name, kept);
    this.index(state, kept, true);
  }

  delete(state: KindState, obj: KubeObject): void {
    const names = state.objects.get(obj.metadata.namespace ?? '');
    const previous = names?.get(obj.metadata.name ?? '');
    if (previous) {
      names!.delete(obj.metadata.name ?? '');
      this.index(state, previous, false);
      state.size--;
      this.total--;
    }
  }
}

/** The object without what no comparison reads and what costs the most memory (managedFields). */
export function slim(obj: KubeObject): KubeObject {
  if (!obj.metadata.managedFields) return obj;
  const { managedFields: _m, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}
