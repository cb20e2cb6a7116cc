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
 *   watch is down (a list or watch request failed), its copy is not trusted until the next list: a list of the
 *   kind waits for the relist the watch makes anyway, and asks the watch to make it now rather than after its
 *   backoff (`ClusterWatch.relist`): one LIST per kind however many read meanwhile (Argo CD's cluster cache
 *   re-lists once and its readers wait for it; reading through, a drift cycle listed the whole kind once per
 *   Application compared). When that relist fails on the API server's trouble (a transient ClusterError: 5xx,
 *   429, a reset or refused connection, after the adapter's retries of each GET), every waiting list fails at
 *   once with that error, as it would without a cache; on another error (the kind no longer served, 403) it reads
 *   through. A get reads through meanwhile (one object, one GET), as does a list when the watch cannot be asked
 *   to relist (a Cluster whose watch has no `relist`).
 * - **Our own writes** (own-writes.ts): a read after our own write never returns an object older than it. Writes
 *   are kept from the moment a kind starts, before its first list is in (that list may have been answered before
 *   the write).
 * - **Bounded memory** (kind-copies.ts): objects are kept without `metadata.managedFields` (the most bytes of an object, read only
 *   by `ignoreDifferences.managedFieldsManagers`: an Application with such a rule is read from the API server by
 *   the wiring), and a kind whose objects would take the cache past `maxObjects` is not cached (read from the API
 *   server each time, logged). A labelSelector query and a kind the API server refuses to list are read through;
 *   a get of a kind not listed yet too (one object), while a list of it waits for the kind's first list, under way
 *   (one list per kind and process, however many read it meanwhile).
 *
 * Discovery (listKinds) is kept for `kindsTtlMs`, and asked again after a change to a CustomResourceDefinition or an
 * APIService (our own write, or the watch's news): a kind served since is looked in at the next read. `onChange`
 * listeners hear every change after a kind's first list (watch-driven drift). A list reads the kind's copy in
 * cached-list.ts; the state kept per kind is in live-state-kinds.ts.
 */
import { DEFAULT_RESOURCE_TRACKING, type KubeObject } from '../domain/index.js';
import { type Cluster, ClusterError, type ObjectChange, refOf, TimeSlice } from '../engine/index.js';
import { listCopy } from './cached-list.js';
import { KindCopies, slim } from './kind-copies.js';
import {
  firstListOf,
  type KindState,
  keyOf,
  kindOf,
  type ListQuery,
  objectAt,
  relistOf,
  SERVES_KINDS,
  type Subscriber,
  settleFirstList,
  settleRelist,
} from './live-state-kinds.js';
import { OwnWrites } from './own-writes.js';

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
  /** The time slice (ms) of a list's new copy (onListed) and of a list's read, between turns of the loop; default 20. */
  sliceMs?: number;
  logger?: { warn(obj: object, msg: string): void };
  now?: () => number;
}

export interface LiveStateCache extends Cluster {
  /**
   * Hear every change a watch sees after its kind was listed, with the copy it replaced or deleted (`previous`,
   * when the cache held one); returns the unsubscribe.
   */
  onChange(listener: (change: ObjectChange & { previous?: KubeObject }) => void): () => void;
  /**
   * Start the list+watch of these kinds now (those not started yet), before anything reads them: a process that
   * will read them (a worker: every kind its syncs look for tracked objects in) has them in memory by then.
   */
  prime(kinds: readonly { apiVersion: string; kind: string }[]): void;
  /** What is held: kinds watched, objects kept, kinds read through (over the bound or refused). */
  stats(): { kinds: number; objects: number; readThrough: number };
  stop(): void;
}

export function createLiveStateCache(options: LiveStateCacheOptions): LiveStateCache {
  const { cluster } = options;
  const maxObjects = options.maxObjects ?? 200_000;
  const kindsTtlMs = options.kindsTtlMs ?? 5 * 60_000;
  const now = options.now ?? Date.now;
  const labelKey = options.trackingLabelKey ?? DEFAULT_RESOURCE_TRACKING.labelKey;
  const copies = new KindCopies(labelKey);
  const kinds = new Map<string, KindState>();
  const readThrough = new Set<string>();
  const listeners = new Set<(change: ObjectChange & { previous?: KubeObject }) => void>();
  const writes = new OwnWrites(cluster);
  const { written, stale } = writes;
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
    settleFirstList(state, false);
    settleRelist(state, false);
    state.watch?.stop();
    copies.total -= state.size;
    kinds.delete(kind);
    readThrough.add(kind);
    for (const sub of state.subscribers) fallBack(sub);
  }

  function overBound(kind: string, state: KindState, size: number): boolean {
    if (copies.total - state.size + size <= maxObjects) return false;
    drop(kind, state, { objects: size, maxObjects }, 'live-state cache full: kind read from the API server');
    return true;
  }

  function start(kind: string, apiVersion: string, kindName: string): KindState {
    const state: KindState = {
      objects: new Map(),
      byOwner: new Map(),
      size: 0,
      watch: undefined,
      listed: false,
      complete: false,
      firstList: firstListOf(),
      relist: undefined,
      replaying: false,
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
        if (change.type === 'DELETED') copies.delete(state, change.object);
        else copies.set(state, change.object);
        writes.seen(change.object, state.replaying);
        // A kind served or gone since (a CRD or an APIService changed after the list): discovery is asked again.
        if (state.listed && SERVES_KINDS.has(kind)) discovery = undefined;
        for (const sub of state.subscribers)
          if (sub.namespace === '' || sub.namespace === (change.object.metadata.namespace ?? ''))
            sub.onChange(change);
        if (state.listed) {
          const told = previous ? { ...change, previous } : change;
          for (const listener of listeners) listener(told);
        }
      },
      {
        onListed: async (_target, objects) => {
          if (kinds.get(kind) !== state || overBound(kind, state, objects.length)) return;
          // The new copy is built in time slices beside the old one, which readers keep until it replaces it
          // (50,000 objects were ~0.1–0.2 s of the bot's loop in one piece; the watch awaits this).
          const copy: KindState = { ...state, objects: new Map(), byOwner: new Map(), size: 0 };
          const slice = new TimeSlice(options.sliceMs);
          for (const o of objects) {
            if (slice.due()) await slice.pause();
            copies.set(copy, o, false);
          }
          if (kinds.get(kind) !== state) return;
          copies.total += copy.size - state.size;
          state.objects = copy.objects;
          state.byOwner = copy.byOwner;
          state.size = copy.size;
          // Our deletes the list no longer has: answered after them, so the copy is right without a GET.
          for (const key of stale) if (key.startsWith(`${kind}|`) && !objectAt(state, key)) stale.delete(key);
          state.complete = true;
          state.replaying = true;
          settleFirstList(state, true);
          settleRelist(state, true);
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
          state.replaying = false;
          for (const sub of state.subscribers) sub.onReplayed?.(sub.target ?? target);
        },
        // The watch is down (the API server unreachable or refusing): the copy may be stale, so reads go to the
        // API server (and fail there, with its error, as without a cache) until the next list.
        onError: (_target, error) => {
          if (kinds.get(kind) !== state) return;
          // Its first list refused (403, 404; a primed kind no one read yet): read through from now on, as a
          // read-through refused (`refused`); retrying the watch would only ask again.
          if (state.firstList && error instanceof ClusterError && !error.transient) {
            drop(
              kind,
              state,
              { statusCode: error.statusCode },
              'live-state cache: kind not listable, read through',
            );
            return;
          }
          state.complete = false;
          settleFirstList(state, false);
          state.relist?.fail(error);
          state.relist = undefined;
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

  /**
   * A list of a kind whose watch is down: wait for the watch's relist (asked for now), shared by every list that
   * comes meanwhile. The state once relisted; undefined to read through (no relist to wait for, the kind left the
   * cache, or the relist failed on something other than the API server's trouble); throws the relist's error
   * when the API server is failing.
   */
  async function relisted(kind: string, state: KindState): Promise<KindState | undefined> {
    const watch = state.watch;
    if (!watch?.relist) return undefined;
    state.relist ??= relistOf();
    const waiting = state.relist.promise;
    watch.relist();
    try {
      await waiting;
    } catch (error) {
      if (error instanceof ClusterError && error.transient) throw error;
      return undefined;
    }
    return state.complete && kinds.get(kind) === state ? state : undefined;
  }

  /**
   * For a list: the kind's state once its first list is in, waiting for that list while it is under way: one list
   * per kind and process, not one more per reader while it loads (a cold worker's first syncs each listed every
   * kind). The copy is then what the cache serves at any time: the API server's list followed by its watch, with
   * our own writes since the kind started kept in `written` (a write may be newer than the list's answer).
   * A kind whose watch is down (after its first list, or its first list failed) waits for the watch's relist
   * (`relisted`). Undefined (read through) when the kind is not cached or its first list failed.
   */
  async function listed(apiVersion: string, kindName: string): Promise<KindState | undefined> {
    const state = warm(apiVersion, kindName);
    if (state) return state;
    const starting = kinds.get(kindOf(apiVersion, kindName));
    if (!starting) return undefined;
    if (!starting.firstList) return relisted(kindOf(apiVersion, kindName), starting);
    const ok = await starting.firstList.promise;
    return ok && starting.complete && kinds.get(kindOf(apiVersion, kindName)) === starting
      ? starting
      : undefined;
  }

  /** Remembers the answer of a write until the watch has seen it. */
  function wrote(obj: KubeObject): KubeObject {
    const ref = refOf(obj);
    if (SERVES_KINDS.has(kindOf(ref.apiVersion, ref.kind))) discovery = undefined;
    // Also while the kind's first list is under way: that list may have been answered before this write.
    if (kinds.has(kindOf(ref.apiVersion, ref.kind))) written.set(keyOf(ref), slim(obj));
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
      return writes.current(state, ref);
    },
    async list(query) {
      if (query.labelSelector) return cluster.list(query);
      const state = await listed(query.apiVersion, query.kind);
      // Not cached, or the watch's relist failed on something else than the API server's trouble: read through.
      if (!state) return cluster.list(query).catch((error: unknown) => refused(query, error));
      return listCopy(state, query, writes, copies, options.sliceMs);
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
      if (!opts.dryRun) writes.deleted(ref);
      return gone;
    },
    async removeFinalizer(ref, finalizer, recent) {
      await cluster.removeFinalizer(ref, finalizer, recent);
      writes.deleted(ref);
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
    prime(toStart) {
      for (const { apiVersion, kind } of toStart) warm(apiVersion, kind);
    },
    stats: () => ({ kinds: kinds.size, objects: copies.total, readThrough: readThrough.size }),
    stop() {
      stopped = true;
      for (const state of kinds.values()) {
        settleFirstList(state, false);
        settleRelist(state, false);
        state.watch?.stop();
        for (const sub of state.subscribers) sub.fallback?.stop();
      }
      kinds.clear();
      written.clear();
      stale.clear();
      copies.total = 0;
    },
  };
}
