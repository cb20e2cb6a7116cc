/**
 * A live-state cache per cluster, as Argo CD keeps one, in front of the Cluster port: every kind something reads
 * (drift's comparisons, `/sync diff`, resource health, the engine's reads and waits) is listed once and then
 * watched (one list+watch per kind, all namespaces), so reading an object or a collection reads memory and the
 * cost grows with the changes in the cluster, not with Applications × objects × intervals. Only the kinds that are
 * read are watched (a kind starts on its first read or watch).
 *
 * - **Shared watches**: `watch()` subscribes to the kind's one watch instead of opening another, so the engine's
 *   waits (a wave's resources becoming Healthy, hooks, prunes) are woken by the cache's events; a kind the cache
 *   does not hold falls back to a watch of its own.
 * - **Resync**: a watch that breaks is re-listed by the Cluster's watch (410 Gone, errors: with backoff, see
 *   src/kube/kube-watch.ts); each list replaces the kind's copy, so an object deleted while the watch was down is
 *   dropped too, and subscribers hear the relist (`onListed`, then every object as MODIFIED). While a kind's
 *   watch is down (a list or watch request failed), its copy is not trusted: reads go to the API server, so an
 *   outage surfaces as the API server's error, as it would without a cache, until the next list.
 * - **Our own writes**: the answer of a (non dry-run) apply, create or replace is kept until the watch has
 *   delivered that resourceVersion or a newer one, and reads return it instead of an older cached copy; after a
 *   delete or a finalizer removal the object is read from the API server until the watch reports it again. So a
 *   read after our own write never returns an object older than the write.
 * - **Bounded memory**: objects are kept without `metadata.managedFields` (the most bytes of an object, read only
 *   by `ignoreDifferences.managedFieldsManagers`: an Application with such a rule is read from the API server by
 *   the wiring), and a kind whose objects would take the cache past `maxObjects` is not cached (read from the API
 *   server each time, logged). A labelSelector query, a kind the API server refuses to list and a kind not listed
 *   yet are read through.
 *
 * Discovery (listKinds) is kept for `kindsTtlMs`. `onChange` listeners hear every change after a kind's first list
 * (watch-driven drift).
 */
import { Annotations, DEFAULT_RESOURCE_TRACKING, type KubeObject } from '../domain/index.js';
import {
  type Cluster,
  ClusterError,
  type ClusterWatch,
  type ObjectChange,
  type ObjectRef,
  refOf,
  type WatchOptions,
  type WatchTarget,
} from '../engine/index.js';

export interface LiveStateCacheOptions {
  cluster: Cluster;
  /**
   * The tracking label key (wavesync.yaml `resourceTracking.labelKey`); default Argo CD's. Objects are indexed by
   * the Application their tracking annotation or this label names, so a `trackedBy` list reads only that
   * Application's objects (drift compares 1,000 Applications without scanning every object 1,000 times).
   */
  trackingLabelKey?: string;
  /** Most objects kept, all kinds together; default 200 000. */
  maxObjects?: number;
  /** How long discovery is reused (ms); default 5 min. */
  kindsTtlMs?: number;
  logger?: { warn(obj: object, msg: string): void };
  now?: () => number;
}

type ListQuery = Parameters<Cluster['list']>[0];

export interface LiveStateCache extends Cluster {
  /**
   * Hear every change a watch sees after its kind was listed, with the copy it replaced or deleted (`previous`,
   * when the cache held one); returns the unsubscribe.
   */
  onChange(listener: (change: ObjectChange & { previous?: KubeObject }) => void): () => void;
  /** What is held: kinds watched, objects kept, kinds read through (over the bound or refused). */
  stats(): { kinds: number; objects: number; readThrough: number };
  stop(): void;
}

interface Subscriber {
  namespace: string;
  onChange(change: ObjectChange): void;
  onListed?: WatchOptions['onListed'];
  onReplayed?: WatchOptions['onReplayed'];
  onError?: WatchOptions['onError'];
  target: WatchTarget;
  /** The subscriber's own watch, when the kind went out of the cache. */
  fallback?: ClusterWatch;
}

interface KindState {
  /** namespace ('' for cluster-scoped) → name → object. */
  objects: Map<string, Map<string, KubeObject>>;
  /** Application named by an object's tracking annotation or label → `namespace|name` → object. */
  byOwner: Map<string, Map<string, KubeObject>>;
  size: number;
  watch: ClusterWatch | undefined;
  /** The first list and its replay arrived (onReplayed): from now on every change is news (onChange). */
  listed: boolean;
  /** The first list arrived (the copy is complete). */
  complete: boolean;
  subscribers: Set<Subscriber>;
}

const kindOf = (apiVersion: string, kind: string) => `${apiVersion}/${kind}`;
const keyOf = (ref: Pick<ObjectRef, 'apiVersion' | 'kind' | 'namespace' | 'name'>) =>
  `${ref.apiVersion}/${ref.kind}|${ref.namespace}|${ref.name}`;

/** True when `a` is at least as new as `b` (numeric resourceVersions, as the API server's; else unknown: false). */
function atLeast(a: KubeObject | undefined, b: KubeObject): boolean {
  const x = Number(a?.metadata.resourceVersion);
  const y = Number(b.metadata.resourceVersion);
  return Number.isFinite(x) && Number.isFinite(y) && x >= y;
}

export function createLiveStateCache(options: LiveStateCacheOptions): LiveStateCache {
  const { cluster } = options;
  const maxObjects = options.maxObjects ?? 200_000;
  const kindsTtlMs = options.kindsTtlMs ?? 5 * 60_000;
  const now = options.now ?? Date.now;
  const labelKey = options.trackingLabelKey ?? DEFAULT_RESOURCE_TRACKING.labelKey;
  /** The Applications an object's markers name (either marker: callers decide which one counts). */
  const ownersOf = (obj: KubeObject): string[] => {
    const owners: string[] = [];
    const id = obj.metadata.annotations?.[Annotations.trackingId];
    if (typeof id === 'string') {
      const colon = id.indexOf(':');
      if (colon > 0) owners.push(id.slice(0, colon));
    }
    const label = obj.metadata.labels?.[labelKey];
    if (typeof label === 'string' && label !== '' && label !== owners[0]) owners.push(label);
    return owners;
  };
  const index = (state: KindState, obj: KubeObject, add: boolean) => {
    const key = `${obj.metadata.namespace ?? ''}|${obj.metadata.name ?? ''}`;
    for (const owner of ownersOf(obj)) {
      const objects = state.byOwner.get(owner);
      if (add) {
        if (objects) objects.set(key, obj);
        else state.byOwner.set(owner, new Map([[key, obj]]));
      } else if (objects?.delete(key) && objects.size === 0) state.byOwner.delete(owner);
    }
  };
  const kinds = new Map<string, KindState>();
  const readThrough = new Set<string>();
  const listeners = new Set<(change: ObjectChange & { previous?: KubeObject }) => void>();
  /** Our own writes' answers not yet seen by the watch (key → object). */
  const written = new Map<string, KubeObject>();
  /** Objects we deleted (or changed by patch) not yet reported by the watch: read from the API server. */
  const stale = new Set<string>();
  let total = 0;
  let stopped = false;
  let discovery: { at: number; kinds: Promise<Awaited<ReturnType<Cluster['listKinds']>>> } | undefined;

  function fallBack(sub: Subscriber): void {
    sub.fallback = cluster.watch([sub.target], sub.onChange, {
      ...(sub.onListed ? { onListed: sub.onListed } : {}),
      ...(sub.onReplayed ? { onReplayed: sub.onReplayed } : {}),
      ...(sub.onError ? { onError: sub.onError } : {}),
    });
  }

  function drop(kind: string, state: KindState, why: object, msg: string): void {
    options.logger?.warn({ kind, ...why }, msg);
    state.watch?.stop();
    total -= state.size;
    kinds.delete(kind);
    readThrough.add(kind);
    for (const sub of state.subscribers) fallBack(sub);
  }

  function overBound(kind: string, state: KindState, size: number): boolean {
    if (total - state.size + size <= maxObjects) return false;
    drop(kind, state, { objects: size, maxObjects }, 'live-state cache full: kind read from the API server');
    return true;
  }

  function setObject(state: KindState, obj: KubeObject): void {
    const namespace = obj.metadata.namespace ?? '';
    let names = state.objects.get(namespace);
    if (!names) {
      names = new Map();
      state.objects.set(namespace, names);
    }
    const name = obj.metadata.name ?? '';
    const previous = names.get(name);
    if (previous) index(state, previous, false);
    else {
      state.size++;
      total++;
    }
    const kept = slim(obj);
    names.set(name, kept);
    index(state, kept, true);
  }

  function deleteObject(state: KindState, obj: KubeObject): void {
    const names = state.objects.get(obj.metadata.namespace ?? '');
    const previous = names?.get(obj.metadata.name ?? '');
    if (previous) {
      names!.delete(obj.metadata.name ?? '');
      index(state, previous, false);
      state.size--;
      total--;
    }
  }

  /** The watch saw `obj` (or its deletion): our write is superseded once it has caught up with it. */
  function seen(obj: KubeObject): void {
    const key = keyOf(refOf(obj));
    stale.delete(key);
    const mine = written.get(key);
    if (mine && (atLeast(obj, mine) || !Number.isFinite(Number(mine.metadata.resourceVersion))))
      written.delete(key);
  }

  function start(kind: string, apiVersion: string, kindName: string): KindState {
    const state: KindState = {
      objects: new Map(),
      byOwner: new Map(),
      size: 0,
      watch: undefined,
      listed: false,
      complete: false,
      subscribers: new Set(),
    };
    kinds.set(kind, state);
    const target = { apiVersion, kind: kindName, namespace: '' };
    state.watch = cluster.watch(
      [target],
      (change) => {
        if (kinds.get(kind) !== state) return;
        const previous = listeners.size
          ? state.objects.get(change.object.metadata.namespace ?? '')?.get(change.object.metadata.name ?? '')
          : undefined;
        if (change.type === 'DELETED') deleteObject(state, change.object);
        else setObject(state, change.object);
        seen(change.object);
        for (const sub of state.subscribers)
          if (sub.namespace === '' || sub.namespace === (change.object.metadata.namespace ?? ''))
            sub.onChange(change);
        if (state.listed) {
          const told = previous ? { ...change, previous } : change;
          for (const listener of listeners) listener(told);
        }
      },
      {
        onListed: (_target, objects) => {
          if (kinds.get(kind) !== state || overBound(kind, state, objects.length)) return;
          total -= state.size;
          state.objects = new Map();
          state.byOwner = new Map();
          state.size = 0;
          for (const o of objects) setObject(state, o);
          state.complete = true;
          for (const sub of state.subscribers) {
            const mine = objects.filter(
              (o) => sub.namespace === '' || (o.metadata.namespace ?? '') === sub.namespace,
            );
            sub.onListed?.(sub.target, mine);
          }
          // The objects are reported as MODIFIED after this (in time slices); after onReplayed changes are news.
        },
        onReplayed: (target) => {
          if (kinds.get(kind) !== state) return;
          state.listed = true;
          for (const sub of state.subscribers) sub.onReplayed?.(sub.target ?? target);
        },
        // The watch is down (the API server unreachable or refusing): the copy may be stale, so reads go to the
        // API server (and fail there, with its error, as without a cache) until the next list.
        onError: (_target, error) => {
          if (kinds.get(kind) !== state) return;
          state.complete = false;
          for (const sub of state.subscribers) sub.onError?.(sub.target, error);
        },
      },
    );
    return state;
  }

  /**
   * The kind's state once its first list is in, or undefined (then the caller reads through: a first read answers
   * at once, with the API server's own error when it has one, while the kind's list+watch starts).
   */
  function warm(apiVersion: string, kindName: string): KindState | undefined {
    const kind = kindOf(apiVersion, kindName);
    if (readThrough.has(kind) || stopped) return undefined;
    const state = kinds.get(kind) ?? start(kind, apiVersion, kindName);
    return state.complete ? state : undefined;
  }

  /** The cached copy, or our own newer write. */
  function current(state: KindState, ref: ObjectRef): KubeObject | undefined {
    const cached = state.objects.get(ref.namespace)?.get(ref.name);
    const mine = written.get(keyOf(ref));
    return mine && !atLeast(cached, mine) ? mine : cached;
  }

  /** Remembers the answer of a write until the watch has seen it. */
  function wrote(obj: KubeObject): KubeObject {
    const ref = refOf(obj);
    if (kinds.get(kindOf(ref.apiVersion, ref.kind))?.complete) written.set(keyOf(ref), slim(obj));
    return obj;
  }

  /** A list the API server refused (403, 404): read through from now on, the watch would only retry. */
  function refused(query: ListQuery, error: unknown): never {
    const kind = kindOf(query.apiVersion, query.kind);
    const state = kinds.get(kind);
    if (error instanceof ClusterError && !error.transient && state && !state.complete)
      drop(
        kind,
        state,
        { statusCode: error.statusCode },
        'live-state cache: kind not listable, read through',
      );
    throw error;
  }

  return {
    discover: (apiVersion, kind) => cluster.discover(apiVersion, kind),
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
    async get(ref) {
      const key = keyOf(ref);
      const state = stale.has(key) ? undefined : warm(ref.apiVersion, ref.kind);
      if (!state) return cluster.get(ref);
      return current(state, ref);
    },
    async list(query) {
      if (query.labelSelector) return cluster.list(query);
      const state = warm(query.apiVersion, query.kind);
      // Not listed yet (the API server refuses the list, or is slow): read through, the watch keeps trying.
      if (!state) return cluster.list(query).catch((error: unknown) => refused(query, error));
      const found: KubeObject[] = [];
      if (query.trackedBy !== undefined) {
        for (const obj of state.byOwner.get(query.trackedBy)?.values() ?? [])
          if (!query.namespace || (obj.metadata.namespace ?? '') === query.namespace)
            found.push(current(state, refOf(obj))!);
      } else {
        const namespaces = query.namespace ? [query.namespace] : [...state.objects.keys()];
        for (const namespace of namespaces)
          for (const name of state.objects.get(namespace)?.keys() ?? [])
            found.push(current(state, { ...query, namespace, name })!);
      }
      // Objects we created that the watch has not reported yet.
      for (const mine of written.values()) {
        const ref = refOf(mine);
        if (ref.apiVersion !== query.apiVersion || ref.kind !== query.kind) continue;
        if (query.namespace && ref.namespace !== query.namespace) continue;
        if (!state.objects.get(ref.namespace)?.has(ref.name)) found.push(mine);
      }
      return found;
    },
    apply: async (obj, opts) => {
      const answer = await cluster.apply(obj, opts);
      return opts.dryRun ? answer : wrote(answer);
    },
    create: async (obj, opts) => {
      const answer = await cluster.create(obj, opts);
      return opts.dryRun ? answer : wrote(answer);
    },
    replace: async (obj, opts) => {
      const answer = await cluster.replace(obj, opts);
      return opts.dryRun ? answer : wrote(answer);
    },
    async delete(ref, opts) {
      const gone = await cluster.delete(ref, opts);
      if (!opts.dryRun) {
        written.delete(keyOf(ref));
        stale.add(keyOf(ref));
      }
      return gone;
    },
    async removeFinalizer(ref, finalizer, recent) {
      await cluster.removeFinalizer(ref, finalizer, recent);
      written.delete(keyOf(ref));
      stale.add(keyOf(ref));
    },
    watch(targets, onChange, watchOptions) {
      const subs: Subscriber[] = [];
      for (const target of targets) {
        const sub: Subscriber = {
          namespace: target.namespace,
          onChange,
          target,
          ...(watchOptions?.onListed ? { onListed: watchOptions.onListed } : {}),
          ...(watchOptions?.onReplayed ? { onReplayed: watchOptions.onReplayed } : {}),
          ...(watchOptions?.onError ? { onError: watchOptions.onError } : {}),
        };
        subs.push(sub);
        const kind = kindOf(target.apiVersion, target.kind);
        if (readThrough.has(kind) || stopped) fallBack(sub);
        else (kinds.get(kind) ?? start(kind, target.apiVersion, target.kind)).subscribers.add(sub);
      }
      return {
        stop() {
          for (const sub of subs) {
            sub.fallback?.stop();
            kinds.get(kindOf(sub.target.apiVersion, sub.target.kind))?.subscribers.delete(sub);
          }
        },
      };
    },
    podLogs: (namespace, name, opts) => cluster.podLogs(namespace, name, opts),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stats: () => ({ kinds: kinds.size, objects: total, readThrough: readThrough.size }),
    stop() {
      stopped = true;
      for (const state of kinds.values()) {
        state.watch?.stop();
        for (const sub of state.subscribers) sub.fallback?.stop();
      }
      kinds.clear();
      written.clear();
      stale.clear();
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
