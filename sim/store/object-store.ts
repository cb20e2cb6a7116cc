/**
 * The in-memory object store (the simulator's etcd): one global resourceVersion counter, deep copies in and
 * out, a bounded history of change events for watches, and synchronous change listeners for controllers.
 *
 * Costs are per object, never per object in the store: objects are indexed by type → namespace → name, and by
 * uid and owner uid; the history is searched by resourceVersion (binary search); a change event is copied only
 * for the listeners that read it (lazily), and watch streams (`subscribeType`) get the stored, read-only event
 * of their type only, so a watch can serialise it once for every watcher.
 */
import { clone, type KubeObject } from './kube-object.js';

type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  type: WatchEventType;
  /** `group/plural` of the object's type. */
  typeKey: string;
  object: KubeObject;
  resourceVersion: number;
  /** The stored object behind `object`, not copied: for listeners that only read (must not be changed). */
  readonly stored?: Readonly<KubeObject>;
}

export type StoreListener = (event: StoreEvent) => void;

/** Where an object lives, for the uid and owner indexes. */
interface Location {
  typeKey: string;
  namespace: string;
  name: string;
}

function locationKey(l: Location): string {
  return `${l.typeKey}\u0000${l.namespace}\u0000${l.name}`;
}

export class ObjectStore {
  private version = 1000;
  /** typeKey → namespace ('' when cluster-scoped) → name → object. */
  private readonly data = new Map<string, Map<string, Map<string, KubeObject>>>();
  private readonly counts = new Map<string, number>();
  private readonly typeVersions = new Map<string, number>();
  private readonly byUid = new Map<string, Location>();
  /** owner uid → dependents (by location key). */
  private readonly byOwner = new Map<string, Map<string, Location>>();
  /** History ring: events history[head..] are live, older slots are released. */
  private history: StoreEvent[] = [];
  private head = 0;
  private readonly listeners = new Set<StoreListener>();
  private readonly typeListeners = new Map<string, Set<StoreListener>>();

  /** @param historyLimit change events kept for watches; older resourceVersions answer 410 Gone. */
  private readonly historyLimit: number;

  constructor(historyLimit = 5000) {
    this.historyLimit = historyLimit;
  }

  /** The latest resourceVersion (what a list returns in metadata.resourceVersion). */
  get resourceVersion(): number {
    return this.version;
  }

  get(typeKey: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const found = this.stored(typeKey, namespace, name);
    return found ? clone(found) : undefined;
  }

  /** The stored object itself (no copy) — callers must not change it. */
  peek(typeKey: string, namespace: string | undefined, name: string): Readonly<KubeObject> | undefined {
    return this.stored(typeKey, namespace, name);
  }

  has(typeKey: string, namespace: string | undefined, name: string): boolean {
    return this.stored(typeKey, namespace, name) !== undefined;
  }

  /** Objects of a type, in one namespace or all, sorted by namespace then name (as etcd key order). */
  list(typeKey: string, namespace?: string): KubeObject[] {
    return this.scan(typeKey, namespace).map((o) => clone(o));
  }

  /**
   * Like `list`, without copies: the stored objects themselves, for answers that are serialised at once. Callers
   * must not change them.
   */
  scan(typeKey: string, namespace?: string): readonly KubeObject[] {
    const namespaces = this.data.get(typeKey);
    if (namespaces === undefined) return [];
    if (namespace !== undefined) return [...(namespaces.get(namespace)?.values() ?? [])].sort(byName);
    const keys = [...namespaces.keys()].sort(compareStrings);
    return keys.flatMap((ns) => [...namespaces.get(ns)!.values()].sort(byName));
  }

  /** Type keys that currently hold at least one object. */
  typeKeys(): string[] {
    return [...this.counts.entries()].filter(([, n]) => n > 0).map(([key]) => key);
  }

  /** Counts changes to objects of one type (e.g. CRDs), so derived views can be cached until it moves. */
  typeVersion(typeKey: string): number {
    return this.typeVersions.get(typeKey) ?? 0;
  }

  /** The object with this uid (a copy), if any. */
  findByUid(uid: string): KubeObject | undefined {
    const at = this.byUid.get(uid);
    return at === undefined ? undefined : this.get(at.typeKey, at.namespace || undefined, at.name);
  }

  /** Objects whose ownerReferences name `uid` (copies). */
  dependentsOf(uid: string): KubeObject[] {
    const deps = this.byOwner.get(uid);
    if (deps === undefined) return [];
    return [...deps.values()].flatMap((at) => this.get(at.typeKey, at.namespace || undefined, at.name) ?? []);
  }

  /** Create or replace an object: assigns the next resourceVersion and notifies. Returns the stored copy. */
  put(typeKey: string, object: KubeObject): KubeObject {
    const stored = clone(object);
    const namespace = stored.metadata.namespace ?? '';
    const name = stored.metadata.name ?? '';
    let namespaces = this.data.get(typeKey);
    if (namespaces === undefined) {
      namespaces = new Map();
      this.data.set(typeKey, namespaces);
    }
    let objects = namespaces.get(namespace);
    if (objects === undefined) {
      objects = new Map();
      namespaces.set(namespace, objects);
    }
    const previous = objects.get(name);
    if (previous) this.unindex(typeKey, previous);
    else this.counts.set(typeKey, (this.counts.get(typeKey) ?? 0) + 1);
    this.version += 1;
    stored.metadata.resourceVersion = String(this.version);
    objects.set(name, stored);
    this.index(typeKey, stored);
    const type = previous ? 'MODIFIED' : 'ADDED';
    this.emit({ type, typeKey, object: stored, resourceVersion: this.version });
    return clone(stored);
  }

  /** Remove an object; the DELETED event carries a fresh resourceVersion, as kube-apiserver does. */
  remove(typeKey: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const objects = this.data.get(typeKey)?.get(namespace ?? '');
    const stored = objects?.get(name);
    if (!objects || !stored) return undefined;
    objects.delete(name);
    if (objects.size === 0) this.data.get(typeKey)?.delete(namespace ?? '');
    this.counts.set(typeKey, (this.counts.get(typeKey) ?? 1) - 1);
    this.unindex(typeKey, stored);
    this.version += 1;
    // A new copy: the stored one is still the object of an earlier event in the history.
    const gone = clone(stored);
    gone.metadata.resourceVersion = String(this.version);
    this.emit({ type: 'DELETED', typeKey, object: gone, resourceVersion: this.version });
    return clone(gone);
  }

  /**
   * Events after `resourceVersion` (the stored events: read-only), or 'expired' when the history no longer
   * reaches back that far.
   */
  eventsSince(resourceVersion: number): readonly StoreEvent[] | 'expired' {
    const oldest = this.history[this.head]?.resourceVersion ?? this.version + 1;
    if (resourceVersion < oldest - 1 && resourceVersion < this.version) return 'expired';
    let lo = this.head;
    let hi = this.history.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.history[mid]!.resourceVersion <= resourceVersion) lo = mid + 1;
      else hi = mid;
    }
    return this.history.slice(lo);
  }

  /** Forget all history (like an etcd compaction): older resourceVersions then get 410 Gone. */
  compact(): void {
    this.history = [];
    this.head = 0;
  }

  /** Every change, each listener getting its own copy of the object (made when it first reads it). */
  subscribe(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Changes of one type only, as the stored event itself (read-only, the same object for every subscriber and in
   * `eventsSince`): what watch streams fan out.
   */
  subscribeType(typeKey: string, listener: StoreListener): () => void {
    let set = this.typeListeners.get(typeKey);
    if (set === undefined) {
      set = new Set();
      this.typeListeners.set(typeKey, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  private stored(typeKey: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.data
      .get(typeKey)
      ?.get(namespace ?? '')
      ?.get(name);
  }

  private index(typeKey: string, obj: KubeObject): void {
    const at: Location = { typeKey, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' };
    if (obj.metadata.uid) this.byUid.set(obj.metadata.uid, at);
    for (const owner of obj.metadata.ownerReferences ?? []) {
      let deps = this.byOwner.get(owner.uid);
      if (deps === undefined) {
        deps = new Map();
        this.byOwner.set(owner.uid, deps);
      }
      deps.set(locationKey(at), at);
    }
  }

  private unindex(typeKey: string, obj: KubeObject): void {
    const at: Location = { typeKey, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' };
    if (obj.metadata.uid && this.byUid.get(obj.metadata.uid)?.typeKey === typeKey)
      this.byUid.delete(obj.metadata.uid);
    for (const owner of obj.metadata.ownerReferences ?? []) {
      const deps = this.byOwner.get(owner.uid);
      deps?.delete(locationKey(at));
      if (deps?.size === 0) this.byOwner.delete(owner.uid);
    }
  }

  private emit(event: StoreEvent): void {
    this.typeVersions.set(event.typeKey, this.typeVersion(event.typeKey) + 1);
    this.history.push(event);
    if (this.history.length - this.head > this.historyLimit) {
      this.history[this.head] = undefined as unknown as StoreEvent;
      this.head += 1;
      // Drop the released slots now and then, so the array does not grow without bound.
      if (this.head >= this.historyLimit) {
        this.history = this.history.slice(this.head);
        this.head = 0;
      }
    }
    for (const listener of [...(this.typeListeners.get(event.typeKey) ?? [])]) listener(event);
    for (const listener of [...this.listeners]) listener(lazyCopy(event));
  }
}

/** The event with `object` copied on first read (most listeners only look at `typeKey`). */
function lazyCopy(event: StoreEvent): StoreEvent {
  let copy: KubeObject | undefined;
  return {
    type: event.type,
    typeKey: event.typeKey,
    resourceVersion: event.resourceVersion,
    stored: event.object,
    get object() {
      copy ??= clone(event.object);
      return copy;
    },
    set object(value: KubeObject) {
      copy = value;
    },
  };
}

function compareStrings(a: string, b: string): number {
  return a.localeCompare(b);
}

function byName(a: KubeObject, b: KubeObject): number {
  return (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
}
