/**
 * A live-state cache's own writes (live-state-cache.ts), so that a read after our own write never returns an object
 * older than it: the answer of a (non dry-run) apply, create or replace is kept until the watch has delivered that
 * resourceVersion or a newer one, and reads return it instead of an older cached copy; after a delete or a
 * finalizer removal the object is read from the API server until the watch reports it again.
 */
import type { KubeObject } from '../domain/index.js';
import { type Cluster, type ObjectRef, refOf } from '../engine/index.js';
import { atLeast, type KindState, keyOf } from './live-state-kinds.js';

export class OwnWrites {
  /** Our own writes' answers not yet seen by the watch (key → object). */
  readonly written = new Map<string, KubeObject>();
  /** Objects we deleted (or changed by patch) not yet reported by the watch: read from the API server. */
  readonly stale = new Set<string>();
  private readonly cluster: Pick<Cluster, 'get'>;

  constructor(cluster: Pick<Cluster, 'get'>) {
    this.cluster = cluster;
  }

  /**
   * The watch saw `obj` (or its deletion): our write is superseded once it has caught up with it. A list's copy
   * (`fromList`) does not end a delete's staleness: the list may have been answered before our delete (a relist
   * under way while we pruned); onListed ends it for the objects the list no longer has.
   */
  seen(obj: KubeObject, fromList: boolean): void {
    const key = keyOf(refOf(obj));
    if (!fromList) this.stale.delete(key);
    const mine = this.written.get(key);
    if (mine && (atLeast(obj, mine) || !Number.isFinite(Number(mine.metadata.resourceVersion))))
      this.written.delete(key);
  }

  /** We deleted `ref` (or removed a finalizer): read it from the API server until the watch reports it again. */
  deleted(ref: ObjectRef): void {
    this.written.delete(keyOf(ref));
    this.stale.add(keyOf(ref));
  }

  /**
   * `found` with the objects we deleted (or patched) that the watch has not reported since read from the API
   * server: a list right after our own delete never returns the object as it was before.
   */
  async withoutStale(found: KubeObject[]): Promise<KubeObject[]> {
    const fresh = await Promise.all(
      found.map((obj) => {
        const ref = refOf(obj);
        return this.stale.has(keyOf(ref)) ? this.cluster.get(ref) : obj;
      }),
    );
    return fresh.filter((obj): obj is KubeObject => obj !== undefined);
  }

  /** The cached copy, or our own newer write. */
  current(state: KindState, ref: ObjectRef): KubeObject | undefined {
    const cached = state.objects.get(ref.namespace)?.get(ref.name);
    const mine = this.written.get(keyOf(ref));
    return mine && !atLeast(cached, mine) ? mine : cached;
  }
}
