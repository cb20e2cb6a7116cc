/**
 * The in-memory object store (the simulator's etcd): one global resourceVersion counter, deep copies in and
 * out, a bounded history of change events for watches, and synchronous change listeners for controllers.
 */
import { clone, type KubeObject } from './kube-object.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  type: WatchEventType;
  /** `group/plural` of the object's type. */
  typeKey: string;
  object: KubeObject;
  resourceVersion: number;
}

export type StoreListener = (event: StoreEvent) => void;

/** Key of an object inside its type: `namespace/name` ('' namespace for cluster-scoped). */
function objectKey(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}/${name}`;
}

export class ObjectStore {
  private version = 1000;
  private readonly data = new Map<string, Map<string, KubeObject>>();
  private history: StoreEvent[] = [];
  private readonly listeners = new Set<StoreListener>();

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
    const found = this.data.get(typeKey)?.get(objectKey(namespace, name));
    return found ? clone(found) : undefined;
  }

  /** Objects of a type, in one namespace or all, sorted by namespace then name (as etcd key order). */
  list(typeKey: string, namespace?: string): KubeObject[] {
    const all = [...(this.data.get(typeKey)?.values() ?? [])];
    const picked =
      namespace === undefined ? all : all.filter((o) => (o.metadata.namespace ?? '') === namespace);
    return picked.map((o) => clone(o)).sort(byNamespaceAndName);
  }

  /** Type keys that currently hold at least one object. */
  typeKeys(): string[] {
    return [...this.data.entries()].filter(([, objects]) => objects.size > 0).map(([key]) => key);
  }

  /** Create or replace an object: assigns the next resourceVersion and notifies. Returns the stored copy. */
  put(typeKey: string, object: KubeObject): KubeObject {
    const stored = clone(object);
    const key = objectKey(stored.metadata.namespace, stored.metadata.name ?? '');
    const objects = this.data.get(typeKey) ?? new Map<string, KubeObject>();
    this.data.set(typeKey, objects);
    const type = objects.has(key) ? 'MODIFIED' : 'ADDED';
    this.version += 1;
    stored.metadata.resourceVersion = String(this.version);
    objects.set(key, stored);
    this.emit({ type, typeKey, object: stored, resourceVersion: this.version });
    return clone(stored);
  }

  /** Remove an object; the DELETED event carries a fresh resourceVersion, as kube-apiserver does. */
  remove(typeKey: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const objects = this.data.get(typeKey);
    const key = objectKey(namespace, name);
    const stored = objects?.get(key);
    if (!objects || !stored) return undefined;
    objects.delete(key);
    this.version += 1;
    stored.metadata.resourceVersion = String(this.version);
    this.emit({ type: 'DELETED', typeKey, object: stored, resourceVersion: this.version });
    return clone(stored);
  }

  /** Events after `resourceVersion`, or 'expired' when the history no longer reaches back that far. */
  eventsSince(resourceVersion: number): StoreEvent[] | 'expired' {
    const oldest = this.history[0]?.resourceVersion ?? this.version + 1;
    if (resourceVersion < oldest - 1 && resourceVersion < this.version) return 'expired';
    return this.history
      .filter((e) => e.resourceVersion > resourceVersion)
      .map((e) => ({ ...e, object: clone(e.object) }));
  }

  /** Forget all history (like an etcd compaction): older resourceVersions then get 410 Gone. */
  compact(): void {
    this.history = [];
  }

  subscribe(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: StoreEvent): void {
    this.history.push(event);
    if (this.history.length > this.historyLimit) this.history.shift();
    for (const listener of [...this.listeners]) listener({ ...event, object: clone(event.object) });
  }
}

function byNamespaceAndName(a: KubeObject, b: KubeObject): number {
  const ns = (a.metadata.namespace ?? '').localeCompare(b.metadata.namespace ?? '');
  return ns !== 0 ? ns : (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
}
