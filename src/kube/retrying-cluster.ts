/**
 * withRetries — the Cluster port with every request retried on transient trouble, as a thin layer over any Cluster
 * (the client-node adapter, kube-cluster.ts): HTTP 408/429/5xx, connection resets/refusals, timeouts
 * (`ClusterError.transient`) are retried with exponential backoff and full jitter (AWS "Exponential Backoff And
 * Jitter"), a 429's Retry-After is honoured; discovery is retried like any request. A 409 Conflict on apply or
 * replace re-reads the live object and tries again a bounded number of times (client-go's RetryOnConflict).
 * Non-transient errors pass through at once. Watches are the adapter's (it re-lists and re-opens them itself).
 */

import type { KubeObject } from '../domain/index.js';
import { type Cluster, ClusterError, isConflict, refOf } from '../engine/index.js';
import type { KubeConfig } from './client-node.js';
import { createKubeCluster, type KubeClusterOptions } from './kube-cluster.js';

export interface RetryPolicy {
  /** Tries per request, the first included; default 6. */
  attempts?: number;
  /** First backoff ceiling in ms, doubled per retry; default 200. */
  baseMs?: number;
  /** Largest backoff (and largest Retry-After honoured) in ms; default 5000. */
  maxMs?: number;
  /** Tries of an apply/replace answered 409 Conflict, re-reading in between; default 4. */
  conflictAttempts?: number;
  /**
   * True when the wrapped cluster already retries each GET itself (the client-node adapter does, per request, in
   * retrying-http.ts): reads then pass through here, so one GET is not tried attempts × attempts times (36 tries:
   * an unreachable cluster took half a minute to be reported). Default false.
   */
  readsRetriedBelow?: boolean;
  /** Called before each retry (metrics, logs). */
  onRetry?(info: { action: string; attempt: number; delayMs: number; error: ClusterError }): void;
  /** Defaults: Math.random and setTimeout; tests pass their own. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Wrap `cluster` so each of its requests is retried per `policy`. */
export function withRetries(cluster: Cluster, policy: RetryPolicy = {}): Cluster {
  const attempts = policy.attempts ?? 6;
  const baseMs = policy.baseMs ?? 200;
  const maxMs = policy.maxMs ?? 5000;
  const conflictAttempts = policy.conflictAttempts ?? 4;
  const random = policy.random ?? Math.random;
  const sleep = policy.sleep ?? defaultSleep;

  /** Backoff before retry `n` (1-based): Retry-After when the server gave one, else full jitter. */
  const delayOf = (n: number, error: ClusterError): number => {
    if (error.retryAfterMs !== undefined)
      return Math.min(maxMs, error.retryAfterMs) + Math.floor(random() * 100);
    return Math.floor(random() * Math.min(maxMs, baseMs * 2 ** (n - 1)));
  };

  async function retrying<T>(action: string, call: (attempt: number) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call(attempt);
      } catch (error) {
        if (!(error instanceof ClusterError) || !error.transient || attempt >= attempts) throw error;
        const delayMs = delayOf(attempt, error);
        policy.onRetry?.({ action, attempt, delayMs, error });
        await sleep(delayMs);
      }
    }
  }

  /** A read: retried here unless the cluster below retries its GETs already. */
  const reading = <T>(action: string, call: () => Promise<T>): Promise<T> =>
    policy.readsRetriedBelow ? call() : retrying(action, call);
  /** Run a write; on 409 Conflict re-read the object and write again (bounded), each try retried if transient. */
  async function onConflictReread(
    action: string,
    obj: KubeObject,
    write: (obj: KubeObject) => Promise<KubeObject>,
    fresh: (obj: KubeObject, live: KubeObject | undefined) => KubeObject,
  ): Promise<KubeObject> {
    let current = obj;
    for (let attempt = 1; ; attempt++) {
      try {
        return await retrying(action, () => write(current));
      } catch (error) {
        if (!isConflict(error) || attempt >= conflictAttempts) throw error;
        const live = await reading(`get ${action}`, () => cluster.get(refOf(obj)));
        current = fresh(obj, live);
        await sleep(Math.floor(random() * Math.min(maxMs, baseMs * 2 ** (attempt - 1))));
      }
    }
  }

  return {
    discover: (apiVersion, kind) =>
      reading(`discover ${apiVersion} ${kind}`, () => cluster.discover(apiVersion, kind)),
    listKinds: () => reading('list kinds', () => cluster.listKinds()),
    get: (ref) => reading('get', () => cluster.get(ref)),
    list: (query) => reading('list', () => cluster.list(query)),
    // Server-side apply is idempotent; a 409 (a stale resourceVersion precondition) applies again without it.
    apply: (obj, options) =>
      onConflictReread('apply', obj, (o) => cluster.apply(o, options), withoutResourceVersion),
    // A create retried after a lost answer may find its own object: that object is the result.
    create: (obj, options) =>
      retrying('create', async (attempt) => {
        try {
          return await cluster.create(obj, options);
        } catch (error) {
          if (attempt === 1 || !isConflict(error)) throw error;
          const live = await cluster.get(refOf(obj));
          if (!live) throw error;
          return live;
        }
      }),
    replace: (obj, options) =>
      onConflictReread(
        'replace',
        obj,
        (o) => cluster.replace(o, options),
        (o, live) =>
          live?.metadata.resourceVersion
            ? { ...o, metadata: { ...o.metadata, resourceVersion: live.metadata.resourceVersion } }
            : withoutResourceVersion(o),
      ),
    delete: (ref, options) =>
      retrying('delete', async (attempt) => {
        const deleted = await cluster.delete(ref, options);
        // A retried delete finding nothing deleted it the first time.
        return deleted || attempt > 1;
      }),
    removeFinalizer: (ref, finalizer, current) =>
      retrying('remove finalizer', () => cluster.removeFinalizer(ref, finalizer, current)),
    watch: (targets, onChange, options) => cluster.watch(targets, onChange, options),
    podLogs: (namespace, name, options) =>
      retrying('pod logs', () => cluster.podLogs(namespace, name, options)),
  };
}

function withoutResourceVersion(obj: KubeObject): KubeObject {
  if (obj.metadata.resourceVersion === undefined) return obj;
  const { resourceVersion: _, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/**
 * The client-node adapter with retries: what every production path (worker, bot, CLI) uses. Its GETs are retried
 * per request by the adapter's HTTP layer (retrying-http.ts), writes here.
 */
export function createRetryingKubeCluster(
  kc: KubeConfig,
  options: KubeClusterOptions & { retry?: RetryPolicy } = {},
): Cluster {
  const { retry, ...adapter } = options;
  return withRetries(createKubeCluster(kc, adapter), { readsRetriedBelow: true, ...retry });
}
