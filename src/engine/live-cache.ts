/**
 * LiveCache — the engine's view of live objects: fed by watches on every collection the operation touches and by
 * the API server's answers to our own writes; an object never seen is read by listing its collection once (GET
 * when listing fails). A collection listed before its watch starts is watched from that list's resourceVersion,
 * not listed a second time by the watch (at 10,000 objects the second list and its replay were ~45 MB of garbage
 * promoted to the old generation, most of a re-apply's peak heap). A collection can also be seeded from a list of
 * more than it (its kind in all namespaces, read for the tracked objects at one resourceVersion): it is then neither
 * listed on its own nor by its watch, which starts at that list's version (valid for any namespace of the kind). An answer at the resourceVersion already held
 * is the same object: the held copy is kept (one copy, shared with the task that wrote it). `invalidate()` (the
 * polling fallback) forgets everything so the next pass re-reads. Every change wakes the runner.
 */
import type { KubeObject } from '../domain/index.js';
import {
  type Cluster,
  type ClusterWatch,
  type ObjectChange,
  type ObjectRef,
  refOf,
  type WatchTarget,
} from './cluster.js';

function refKey(ref: ObjectRef): string {
  return `${ref.apiVersion}|${ref.kind}|${ref.namespace}|${ref.name}`;
}

function targetKey(target: WatchTarget): string {
  return `${target.apiVersion}|${target.kind}|${target.namespace}`;
}

/**
 * True when `candidate` is not older than `current` (resourceVersions compared numerically when both are); with
 * `strictly`, false too when both are at the same version (the same object: the one held is kept).
 */
function isNewer(candidate: KubeObject, current: KubeObject | null | undefined, strictly = false): boolean {
  const a = Number(candidate.metadata.resourceVersion);
  const b = Number(current?.metadata.resourceVersion);
  if (!(Number.isFinite(a) && Number.isFinite(b))) return true;
  return strictly ? a > b : a >= b;
}

export class LiveCache {
  private readonly cluster: Cluster;
  private readonly onChange: () => void;
  private readonly objects = new Map<string, KubeObject | null>();
  private readonly watched = new Set<string>();
  private readonly watches: ClusterWatch[] = [];
  /** Collections listed into `objects` (by targetKey), settled or in flight. */
  private readonly listings = new Map<string, Promise<boolean>>();
  /** The resourceVersion each listed collection was read at (by targetKey): where its watch starts. */
  private readonly listedAt = new Map<string, string>();

  constructor(cluster: Cluster, onChange: () => void) {
    this.cluster = cluster;
    this.onChange = onChange;
  }

  /** Starts one watch per collection not watched yet (`targets` may name a collection several times). */
  watch(targets: readonly WatchTarget[]): void {
    const fresh: WatchTarget[] = [];
    for (const t of targets) {
      const key = targetKey(t);
      if (this.watched.has(key)) continue;
      this.watched.add(key);
      const resourceVersion = this.listedAt.get(key);
      const { apiVersion, kind, namespace } = t;
      fresh.push(resourceVersion === undefined ? t : { apiVersion, kind, namespace, resourceVersion });
    }
    if (fresh.length === 0) return;
    this.watches.push(this.cluster.watch(fresh, (change) => this.observe(change)));
  }

  /**
   * The cached object. An object never seen is looked up by listing its whole collection once (one request for
   * all the objects of a kind in a namespace, as Argo CD's cluster cache does, instead of one GET per object);
   * when the list fails (e.g. not allowed), by GET.
   */
  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    const key = refKey(ref);
    if (!this.objects.has(key)) {
      const listed = await this.listCollection(ref);
      if (!this.objects.has(key))
        this.objects.set(key, listed ? null : ((await this.cluster.get(ref)) ?? null));
    }
    return this.objects.get(key) ?? undefined;
  }

  /**
   * Reads the collection of `target` (a kind in a namespace, '' for all or cluster-scoped) into the cache, as `get`
   * does for an object never seen, without reading any object on its own; false when the list failed.
   */
  readCollection(target: WatchTarget): Promise<boolean> {
    return this.listCollection({ ...target, name: '' });
  }

  /**
   * Holds `objects` as the whole collection `target`, as a list answered it at `resourceVersion` (a list of its kind
   * in all namespaces, which held every object of this namespace): a read of the collection then needs no list of
   * its own, and its watch starts at that version. A collection read already, or being read, is left as it is.
   */
  seed(target: WatchTarget, objects: readonly KubeObject[], resourceVersion: string): void {
    const collection = targetKey(target);
    if (this.listings.has(collection)) return;
    this.hold(objects);
    this.listings.set(collection, Promise.resolve(true));
    this.listedAt.set(collection, resourceVersion);
  }

  /** Always reads from the API server (and caches the answer). */
  async fresh(ref: ObjectRef): Promise<KubeObject | undefined> {
    const obj = (await this.cluster.get(ref)) ?? null;
    this.objects.set(refKey(ref), obj);
    return obj ?? undefined;
  }

  /**
   * The copy of `obj` held here when it is at the same resourceVersion (the same object read twice, e.g. by the
   * tracked-objects list and by the list of its collection): one copy in memory instead of two. Else `obj`.
   */
  shared(obj: KubeObject): KubeObject {
    return this.heldAt(refKey(refOf(obj)), obj) ?? obj;
  }

  /**
   * Records the API server's answer to a write; returns the copy to hold on to: the one held already when the
   * answer is at its resourceVersion (a write that changed nothing, e.g. re-applying 10,000 unchanged objects:
   * their answers are dropped at once instead of the listed copies later, after they had grown old), else `obj`.
   */
  put(ref: ObjectRef, obj: KubeObject): KubeObject;
  put(ref: ObjectRef, obj: undefined): undefined;
  put(ref: ObjectRef, obj: KubeObject | undefined): KubeObject | undefined {
    const key = refKey(ref);
    if (obj === undefined) {
      this.objects.set(key, null);
      return undefined;
    }
    const held = this.heldAt(key, obj);
    if (held !== undefined) return held;
    if (isNewer(obj, this.objects.get(key))) this.objects.set(key, obj);
    return obj;
  }

  /** The copy held under `key` when it is at the resourceVersion of `obj` (then it is the same object). */
  private heldAt(key: string, obj: KubeObject): KubeObject | undefined {
    const held = this.objects.get(key);
    const version = obj.metadata.resourceVersion;
    return held && version !== undefined && held.metadata.resourceVersion === version ? held : undefined;
  }

  /** Cached live objects matching `predicate` (objects seen through watches, reads or writes). */
  find(predicate: (obj: KubeObject) => boolean): KubeObject[] {
    return [...this.objects.values()].filter((o): o is KubeObject => o !== null && predicate(o));
  }

  /** Forgets everything (polling fallback). */
  invalidate(): void {
    this.objects.clear();
    this.listings.clear();
    this.listedAt.clear();
  }

  stop(): void {
    for (const w of this.watches) w.stop();
    this.watches.length = 0;
  }

  /** Lists the collection of `ref` once (concurrent callers share the request); false when the list failed. */
  private listCollection(ref: ObjectRef): Promise<boolean> {
    const collection = targetKey(ref);
    let listing = this.listings.get(collection);
    if (listing === undefined) {
      let version: string | undefined;
      const query = {
        apiVersion: ref.apiVersion,
        kind: ref.kind,
        namespace: ref.namespace,
        listedAt: (resourceVersion: string) => {
          version = resourceVersion;
        },
      };
      listing = this.cluster.list(query).then(
        (items) => {
          this.hold(items);
          if (version !== undefined && this.listings.get(collection) === listing)
            this.listedAt.set(collection, version);
          return true;
        },
        () => {
          this.listings.delete(collection);
          return false;
        },
      );
      this.listings.set(collection, listing);
    }
    return listing;
  }

  /** Keeps each of a list's objects unless a newer copy is held. */
  private hold(items: readonly KubeObject[]): void {
    for (const obj of items) {
      const key = refKey(refOf(obj));
      if (isNewer(obj, this.objects.get(key), true)) this.objects.set(key, obj);
    }
  }

  private observe(change: ObjectChange): void {
    const obj = change.object;
    const key = refKey(refOf(obj));
    if (change.type === 'DELETED') this.objects.set(key, null);
    else if (isNewer(obj, this.objects.get(key), true)) this.objects.set(key, obj);
    this.onChange();
  }
}
