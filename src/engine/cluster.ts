/**
 * The Cluster port: the sync engine's only I/O. The Kubernetes adapter lives in `src/kube/kube-cluster.ts`;
 * tests may use an in-memory fake. Every method throws `ClusterError` on API failure (never a raw client error).
 * Objects cross this port as plain JSON (`KubeObject`): timestamps are ISO strings, field names as on the wire.
 */
import type { KubeObject } from '../domain/index.js';

/** One object: `namespace` is '' for cluster-scoped kinds. */
export interface ObjectRef {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

/** What discovery knows about a kind. */
export interface ApiResourceInfo {
  /** Plural resource name, e.g. `deployments`. */
  name: string;
  namespaced: boolean;
}

/** Delete propagation (Argo CD `PrunePropagationPolicy`, default Foreground). */
type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

export interface WriteOptions {
  /** Server-side dry run (`dryRun=All`): validated and defaulted by the API server, nothing persisted. */
  dryRun: boolean;
  /** Validation off (`fieldValidation=Ignore`), for the `Validate=false` sync option. */
  validate?: boolean;
  /** The field manager to write as; default FIELD_MANAGER (resource actions write as ACTION_FIELD_MANAGER). */
  fieldManager?: string;
}

export interface ApplyOptions extends WriteOptions {
  /** Take ownership of conflicting fields (`force=true`); wavesync always forces, as Argo CD does. */
  force: boolean;
}

/** A collection to watch: a kind in one namespace ('' = cluster-scoped or all namespaces). */
export interface WatchTarget {
  apiVersion: string;
  kind: string;
  namespace: string;
  /**
   * The watcher already holds this collection as a `list` answered it at this resourceVersion (its `listedAt`):
   * the watch starts from there, without a list (nor `onListed` and replay) of its own — the same objects would
   * be read and parsed twice. It still lists when the server no longer has that version (410 Gone) or after an
   * error. An implementation that cannot start from a version lists as without it.
   */
  resourceVersion?: string;
}

type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One observed change. */
export interface ObjectChange {
  type: ChangeType;
  object: KubeObject;
}

/** What else a watcher wants to hear. */
export interface WatchOptions {
  /**
   * After each (re)list of a collection, before its objects are reported as MODIFIED: every object it holds now,
   * so a consumer keeping a copy can drop what was deleted while the watch was down (410 Gone, errors). A promise
   * it returns is awaited before the replay (a copy of 50,000 objects is built in time slices).
   */
  onListed?(target: WatchTarget, objects: readonly KubeObject[]): void | Promise<void>;
  /**
   * After the MODIFIED replay that follows each `onListed`, which may span several turns of the event loop (handed
   * on in time slices: 50,000 objects were ~0.3 s of CPU in one piece): changes from here on are news.
   */
  onReplayed?(target: WatchTarget): void;
  /**
   * A list or watch request of a collection failed (the API server unreachable, refusing, …); the watch backs off
   * and lists again. A consumer keeping a copy must not trust it until the next `onListed`.
   */
  onError?(target: WatchTarget, error: unknown): void;
}

/** A running watch; `stop()` ends it and releases its connections. */
export interface ClusterWatch {
  stop(): void;
  /**
   * Optional: list again now if the watch is backing off after an error (`onError`), instead of when its backoff
   * ends; nothing otherwise (its list is under way, or it is healthy). For a consumer whose readers wait for the
   * relist.
   */
  relist?(): void;
}

export interface Cluster {
  /** Discovery for `apiVersion`+`kind`; undefined when the API server does not serve the kind (yet). */
  discover(apiVersion: string, kind: string): Promise<ApiResourceInfo | undefined>;
  /** Every kind the API server serves that can be listed and deleted (preferred version of each group). */
  listKinds(): Promise<{ apiVersion: string; kind: string; namespaced: boolean }[]>;
  /** The live object, or undefined when it does not exist (404). */
  get(ref: ObjectRef): Promise<KubeObject | undefined>;
  /** Objects of a kind matching a label selector, in one namespace or (namespace '') in all namespaces. */
  list(query: {
    apiVersion: string;
    kind: string;
    namespace: string;
    labelSelector?: string;
    /**
     * A hint: only the objects whose tracking marker (annotation or label) may name this Application are wanted.
     * An implementation may return more (the API server returns all; a cache with an index returns that
     * Application's); callers filter.
     */
    trackedBy?: string;
    /**
     * A hint: objects it answers false for are not wanted, and may be dropped as they arrive (page by page)
     * instead of held until the whole list is read. Called with `apiVersion` and `kind` set. Callers filter.
     */
    keep?(obj: KubeObject): boolean;
    /**
     * Told the resourceVersion the answer was read at (the list's `metadata.resourceVersion`), when it comes from
     * the API server — and then the answer holds every object of the collection that `keep` accepts (`trackedBy`
     * is not applied): a watch of the same collection, or of one namespace of it, can start there
     * (WatchTarget.resourceVersion). Not told when the answer comes from elsewhere (a cache's index).
     */
    listedAt?(resourceVersion: string): void;
  }): Promise<KubeObject[]>;
  /** Server-side apply with field manager `wavesync`; returns the object as the server persisted it. */
  apply(obj: KubeObject, options: ApplyOptions): Promise<KubeObject>;
  /** Create (for `Replace=true` on a missing object). */
  create(obj: KubeObject, options: WriteOptions): Promise<KubeObject>;
  /** Replace (for `Replace=true` on an existing object); `obj.metadata.resourceVersion` may be unset. */
  replace(obj: KubeObject, options: WriteOptions): Promise<KubeObject>;
  /** Delete; resolves false when the object was already gone. */
  delete(
    ref: ObjectRef,
    options: { propagationPolicy: PropagationPolicy; dryRun?: boolean },
  ): Promise<boolean>;
  /**
   * Remove one finalizer if present (JSON patch; retried on conflict). NotFound is not an error. `current`, when
   * given, is a recent copy of the object, which saves reading it first.
   */
  removeFinalizer(ref: ObjectRef, finalizer: string, current?: KubeObject): Promise<void>;
  /**
   * Watch collections; `onChange` is called for every change, in order per collection. Implementations restart
   * on errors and timeouts (relisting after 410 Gone) until stopped; a polling implementation is acceptable.
   */
  watch(
    targets: readonly WatchTarget[],
    onChange: (change: ObjectChange) => void,
    options?: WatchOptions,
  ): ClusterWatch;
  /**
   * The last `tailLines` lines of a Pod's log (first container unless named; with `previous`, of its last
   * terminated instance); [] when there is none yet.
   */
  podLogs(
    namespace: string,
    name: string,
    options: { tailLines: number; container?: string; previous?: boolean },
  ): Promise<string[]>;
}

/**
 * An API failure. `transient` errors (timeouts, 429, 5xx, connection resets) are worth retrying with backoff;
 * permanent ones (4xx) carry the API server's Status message, which the engine shows the user verbatim.
 */
export class ClusterError extends Error {
  /** HTTP status, when the API server answered. */
  readonly statusCode: number | undefined;
  /** Kubernetes Status `reason`, e.g. `NotFound`, `Invalid`, `Conflict`, `AlreadyExists`. */
  readonly reason: string | undefined;
  readonly transient: boolean;
  /** The server's Retry-After (HTTP 429/503) in ms, when it sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(
    message: string,
    details: { statusCode?: number; reason?: string; transient: boolean; retryAfterMs?: number },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ClusterError';
    this.statusCode = details.statusCode;
    this.reason = details.reason;
    this.transient = details.transient;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** True for a ClusterError meaning "the object does not exist". */
export function isNotFound(error: unknown): boolean {
  return error instanceof ClusterError && error.statusCode === 404;
}

/** True for a ClusterError meaning "conflict" (409). */
export function isConflict(error: unknown): boolean {
  return error instanceof ClusterError && error.statusCode === 409;
}

/** The ObjectRef of an object. */
export function refOf(obj: KubeObject): ObjectRef {
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    namespace: obj.metadata.namespace ?? '',
    name: obj.metadata.name ?? '',
  };
}

/** Field manager wavesync applies with (Argo CD uses `argocd-controller`). */
export const FIELD_MANAGER = 'wavesync';

/**
 * Field manager of resource actions (restart, scale, …): their fields are not the sync's, so the next sync (which
 * applies only its manifests as FIELD_MANAGER) does not remove them.
 */
export const ACTION_FIELD_MANAGER = 'wavesync-action';
