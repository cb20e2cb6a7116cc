/**
 * A live-state cache per cluster, as Argo CD keeps one: every kind the comparisons read is listed once and then
 * watched (one list+watch per kind, all namespaces), so comparing an Application reads memory, and the cost of
 * drift detection grows with the changes in the cluster, not with Applications × kinds × intervals. A watch that
 * breaks is re-listed by the Cluster's watch (410 Gone, errors: with backoff), and each list replaces the kind's
 * copy, so an object deleted while the watch was down is dropped too. Discovery (listKinds) is kept for
 * `kindsTtlMs`. Memory is bounded: objects are kept without `metadata.managedFields`, and a kind whose objects
 * would take the cache past `maxObjects` is not cached (its list is read from the API server each time, logged).
 * A labelSelector query is read through. `onChange` hears every change after the first list (watch-driven drift).
 */
import type { KubeObject } from '../domain/index.js';
import type { Cluster, ClusterWatch, ObjectChange } from '../engine/index.js';

export interface LiveStateCacheOptions {
  cluster: Pick<Cluster, 'listKinds' | 'list' | 'watch'>;
  /** Most objects kept, all kinds together; default 200 000. */
  maxObjects?: number;
  /** How long discovery is reused (ms); default 5 min. */
  kindsTtlMs?: number;
  /** How long a first list may take before the query is read through instead (ms); default 30 s. */
  readyTimeoutMs?: number;
  /** A change seen by a watch after its kind was listed. */
  onChange?(change: ObjectChange): void;
  logger?: { warn(obj: object, msg: string): void };
  now?: () => number;
}

type ListQuery = Parameters<Cluster['list']>[0];

export interface LiveStateCache extends Pick<Cluster, 'listKinds' | 'list'> {
  /** What is held: kinds watched, objects kept, kinds read through (over the bound). */
  stats(): { kinds: number; objects: number; readThrough: number };
  stop(): void;
}

interface KindState {
  objects: Map<string, KubeObject>;
  ready: Promise<void>;
  watch: ClusterWatch | undefined;
  listed: boolean;
  /** The first list arrived (the copy is complete). */
  complete: boolean;
  /** A query already waited readyTimeoutMs for the first list: the next ones read through until it arrives. */
  waited: boolean;
}

export function createLiveStateCache(options: LiveStateCacheOptions): LiveStateCache {
  const { cluster } = options;
  const maxObjects = options.maxObjects ?? 200_000;
  const kindsTtlMs = options.kindsTtlMs ?? 5 * 60_000;
  const readyTimeoutMs = options.readyTimeoutMs ?? 30_000;
  const now = options.now ?? Date.now;
  const kinds = new Map<string, KindState>();
  const readThrough = new Set<string>();
  let total = 0;
  let discovery: { at: number; kinds: Promise<Awaited<ReturnType<Cluster['listKinds']>>> } | undefined;

  const keyOf = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

  function overBound(kind: string, state: KindState, size: number): boolean {
    if (total - state.objects.size + size <= maxObjects) return false;
    options.logger?.warn(
      { kind, objects: size, maxObjects },
      'live-state cache full: kind read from the API server',
    );
    state.watch?.stop();
    total -= state.objects.size;
    kinds.delete(kind);
    readThrough.add(kind);
    return true;
  }

  function start(kind: string, query: ListQuery): KindState {
    let resolveReady!: () => void;
    const state: KindState = {
      objects: new Map(),
      ready: new Promise((resolve) => {
        resolveReady = resolve;
      }),
      watch: undefined,
      listed: false,
      complete: false,
      waited: false,
    };
    kinds.set(kind, state);
    const target = { apiVersion: query.apiVersion, kind: query.kind, namespace: '' };
    state.watch = cluster.watch(
      [target],
      (change) => {
        if (kinds.get(kind) !== state) return;
        const key = keyOf(change.object);
        const had = state.objects.has(key);
        if (change.type === 'DELETED') {
          if (had) total--;
          state.objects.delete(key);
        } else {
          if (!had) total++;
          state.objects.set(key, slim(change.object));
        }
        if (state.listed) options.onChange?.(change);
      },
      {
        onListed: (_target, objects) => {
          if (kinds.get(kind) !== state || overBound(kind, state, objects.length)) return resolveReady();
          total -= state.objects.size;
          state.objects = new Map(objects.map((o) => [keyOf(o), slim(o)]));
          total += state.objects.size;
          state.complete = true;
          // The objects are reported as MODIFIED right after this; from the next change on they are news.
          queueMicrotask(() => {
            state.listed = true;
          });
          resolveReady();
        },
      },
    );
    return state;
  }

  return {
    listKinds() {
      if (!discovery || now() - discovery.at > kindsTtlMs) {
        const fresh = { at: now(), kinds: cluster.listKinds() };
        fresh.kinds.catch(() => {
          if (discovery === fresh) discovery = undefined;
        });
        discovery = fresh;
      }
      return discovery.kinds;
    },
    async list(query) {
      const kind = `${query.apiVersion}/${query.kind}`;
      if (query.labelSelector || readThrough.has(kind)) return cluster.list(query);
      const state = kinds.get(kind) ?? start(kind, query);
      if (!state.complete && !state.waited) {
        await Promise.race([
          state.ready,
          new Promise((resolve) => setTimeout(resolve, readyTimeoutMs).unref()),
        ]);
        state.waited = true;
      }
      // Not listed yet (the API server refuses the list, or is slow): read through, the watch keeps trying.
      if (!state.complete || kinds.get(kind) !== state) return cluster.list(query);
      const all = [...state.objects.values()];
      return query.namespace ? all.filter((o) => o.metadata.namespace === query.namespace) : all;
    },
    stats: () => ({ kinds: kinds.size, objects: total, readThrough: readThrough.size }),
    stop() {
      for (const state of kinds.values()) state.watch?.stop();
      kinds.clear();
      total = 0;
    },
  };
}

/** The object without what no comparison reads and what costs the most memory (managedFields). */
function slim(obj: KubeObject): KubeObject {
  if (!obj.metadata.managedFields) return obj;
  const { managedFields: _m, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}
