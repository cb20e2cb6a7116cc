/**
 * A live-state cache's state per kind (live-state-cache.ts): the kind's copy and watch, whether its first list is
 * in, the lists waiting for its first list or for a relist, and who subscribed to its changes; with the keys the
 * cache files kinds and objects under.
 */
import type { KubeObject } from '../domain/index.js';
import type {
  Cluster,
  ClusterWatch,
  ObjectChange,
  ObjectRef,
  WatchOptions,
  WatchTarget,
} from '../engine/index.js';

export type ListQuery = Parameters<Cluster['list']>[0];

export interface Subscriber {
  namespace: string;
  onChange(change: ObjectChange): void;
  onListed?: WatchOptions['onListed'];
  onReplayed?: WatchOptions['onReplayed'];
  onError?: WatchOptions['onError'];
  target: WatchTarget;
  /** The subscriber's own watch, when the kind went out of the cache. */
  fallback?: ClusterWatch;
}

export interface KindState {
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
  /**
   * Until the kind's first list arrives or fails: resolves true once the copy is complete, false when the list
   * failed or the kind left the cache. A list of the kind waits for it instead of listing the kind a second time.
   */
  firstList: FirstList | undefined;
  /**
   * While the watch is down and lists wait for its relist: settled by the next list (true; false when the kind
   * left the cache) or rejected with the next error of the watch.
   */
  relist: Relist | undefined;
  /** Between a list's arrival and the end of its MODIFIED replay (a list's copies, not news). */
  replaying: boolean;
  subscribers: Set<Subscriber>;
}

interface Relist {
  promise: Promise<boolean>;
  settle(listed: boolean): void;
  fail(error: unknown): void;
}

export function relistOf(): Relist {
  let settle: (listed: boolean) => void = () => {};
  let fail: (error: unknown) => void = () => {};
  const promise = new Promise<boolean>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  // Every waiter awaits it; this keeps a rejection no one waits for any more from being unhandled.
  promise.catch(() => undefined);
  return { promise, settle, fail };
}

interface FirstList {
  promise: Promise<boolean>;
  settle(listed: boolean): void;
}

export function firstListOf(): FirstList {
  let settle: (listed: boolean) => void = () => {};
  const promise = new Promise<boolean>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}

export const kindOf = (apiVersion: string, kind: string) => `${apiVersion}/${kind}`;

/** Kinds whose objects change what the API server serves: a change to one drops the kept discovery (listKinds). */
export const SERVES_KINDS = new Set([
  'apiextensions.k8s.io/v1/CustomResourceDefinition',
  'apiregistration.k8s.io/v1/APIService',
]);
export const keyOf = (ref: Pick<ObjectRef, 'apiVersion' | 'kind' | 'namespace' | 'name'>) =>
  `${ref.apiVersion}/${ref.kind}|${ref.namespace}|${ref.name}`;

/** True when `a` is at least as new as `b` (numeric resourceVersions, as the API server's; else unknown: false). */
export function atLeast(a: KubeObject | undefined, b: KubeObject): boolean {
  const x = Number(a?.metadata.resourceVersion);
  const y = Number(b.metadata.resourceVersion);
  return Number.isFinite(x) && Number.isFinite(y) && x >= y;
}

/** The cached copy of `key` (keyOf), if the kind's copy holds it. */
export function objectAt(state: KindState, key: string): KubeObject | undefined {
  const [, namespace = '', name = ''] = key.split('|');
  return state.objects.get(namespace)?.get(name);
}

/** The relist lists waited for is in (true), or the kind left the cache (false). */
export function settleRelist(state: KindState, listed: boolean): void {
  state.relist?.settle(listed);
  state.relist = undefined;
}

/** The first list of the kind is in, or failed: lists that waited for it go on (read memory, or through). */
export function settleFirstList(state: KindState, listed: boolean): void {
  state.firstList?.settle(listed);
  state.firstList = undefined;
}
