/**
 * createKubeCluster — the Cluster port over @kubernetes/client-node 1.4.0's KubeConfig (server, TLS and
 * credentials): discovery (kube-discovery.ts) for every kind incl. CRDs, reads, lists, writes, watches and Pod
 * logs through KubeHttp (kube-http.ts: a lean keep-alive request path under the same credentials) — server-side
 * apply with field manager `wavesync` and `force=true`, server-side dry run (`dryRun=All`), JSON-patch finalizer
 * removal; watches (KubeHttp's) with bounded `timeoutSeconds` and restart (see kube-watch.ts). Every failure becomes a
 * ClusterError.
 */

import type { KubeObject } from '../domain/index.js';
import {
  type ApplyOptions,
  type Cluster,
  ClusterError,
  type ClusterWatch,
  FIELD_MANAGER,
  isConflict,
  isNotFound,
  type ObjectChange,
  type ObjectRef,
  type WatchOptions,
  type WatchTarget,
  type WriteOptions,
} from '../engine/index.js';
import type { KubeConfig } from './client-node.js';
import { toClusterError } from './cluster-errors.js';
import { type ApiResourceEntry, KubeDiscovery, type ServedGroup } from './kube-discovery.js';
import { KubeHttp, type KubeRequest } from './kube-http.js';
import { type WatchList, watchCollections } from './kube-watch.js';

/** Content types of the patches the adapter sends (client-node's PatchStrategy). */
const SERVER_SIDE_APPLY = 'application/apply-patch+yaml';
const JSON_PATCH = 'application/json-patch+json';

export interface KubeClusterOptions {
  /** Server-side `timeoutSeconds` of each watch request (the watch is then restarted); default 30. */
  watchTimeoutSeconds?: number;
  /**
   * Each non-watch request is aborted when the API server has not answered within this many ms, and retried as
   * a transient error by the engine; default 30 000 (client-node itself never times out).
   */
  requestTimeoutMs?: number;
  /**
   * Requests (other than watches) in flight at once; more wait their turn. Default 64. Keeps any burst of the
   * engine (planning, dry runs, applies of a big wave) within what an API server — and a loopback listen
   * backlog — takes, as client-go's rate limiter does for Argo CD.
   */
  maxInFlight?: number;
}

/** Default KubeClusterOptions.maxInFlight. */
const DEFAULT_MAX_IN_FLIGHT = 64;

/** Objects per page of a list: kubectl's default `--chunk-size`. */
const LIST_PAGE_SIZE = 500;

/** A counting semaphore: `run` starts `task` once fewer than `limit` tasks are running. */
class InFlightLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = Math.max(1, limit);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/** Default per-request timeout in ms (KubeClusterOptions.requestTimeoutMs). */
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

function refOfObject(obj: KubeObject): ObjectRef {
  const { namespace = '', name = '' } = obj.metadata;
  return { apiVersion: obj.apiVersion, kind: obj.kind, namespace, name };
}

function describe(verb: string, ref: ObjectRef): string {
  return `${verb} ${ref.apiVersion} ${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

/** Query parameters of a write: `dryRun=All`, `fieldManager`, `fieldValidation=Ignore` for Validate=false. */
function writeQuery(options: WriteOptions): Record<string, string | undefined> {
  return {
    dryRun: options.dryRun ? 'All' : undefined,
    fieldManager: options.fieldManager ?? FIELD_MANAGER,
    fieldValidation: options.validate === false ? 'Ignore' : undefined,
  };
}

/** Runs one request (which answers plain JSON); ClusterError on failure. */
async function callOnce<T>(action: string, run: () => Promise<unknown>): Promise<T> {
  try {
    return (await run()) as T;
  } catch (error) {
    throw toClusterError(error, action);
  }
}

/** undefined instead of a NotFound error. */
async function orUndefined<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

class KubeCluster implements Cluster {
  private readonly api: KubeDiscovery;
  private readonly http: KubeHttp;
  private readonly watchTimeoutSeconds: number;
  private readonly inFlight: InFlightLimit;

  constructor(kc: KubeConfig, options: KubeClusterOptions) {
    const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.http = new KubeHttp(kc, { requestTimeoutMs: timeoutMs });
    this.api = new KubeDiscovery(this.http, contextNamespace(kc));
    this.watchTimeoutSeconds = options.watchTimeoutSeconds ?? 30;
    this.inFlight = new InFlightLimit(options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
  }

  /** One API request through the in-flight limit; plain JSON out, ClusterError on failure. */
  private call<T>(action: string, run: () => Promise<unknown>): Promise<T> {
    return this.inFlight.run(() => callOnce<T>(action, run));
  }

  /** One request on `ref` (its path from discovery) through KubeHttp; plain JSON out, ClusterError on failure. */
  private send<T>(
    action: string,
    ref: ObjectRef,
    target: 'object' | 'create' | 'list',
    request: Omit<KubeRequest, 'path'>,
  ): Promise<T> {
    // A kind discovery knows (nearly every request of a sync) takes its path at once, without an extra await —
    // inside the call, as pathOf: when its turn comes, and a path that cannot be written fails as a ClusterError.
    return this.call(action, () => {
      const path = this.api.cachedPathOf(ref, target);
      if (path !== undefined) return this.http.request<T>({ ...request, path });
      return this.api.pathOf(ref, target).then((found) => this.http.request<T>({ ...request, path: found }));
    });
  }

  async discover(apiVersion: string, kind: string) {
    const resource = await orUndefined(
      this.call<ApiResourceEntry | undefined>(`discover ${apiVersion} ${kind}`, () =>
        this.api.resource(apiVersion, kind),
      ),
    );
    return resource === undefined ? undefined : { name: resource.name, namespaced: resource.namespaced };
  }

  /** The preferred version of each group (aggregated discovery: two requests; else the legacy walk). */
  async listKinds() {
    const groups = await this.call<ServedGroup[]>('discover API groups', () => this.api.served());
    return groups.flatMap((group) => {
      const preferred = group.versions[0];
      if (preferred === undefined) return [];
      return preferred.resources
        .filter((r) => !r.name.includes('/') && r.verbs.includes('list') && r.verbs.includes('delete'))
        .map((r) => ({ apiVersion: preferred.apiVersion, kind: r.kind, namespaced: r.namespaced }));
    });
  }

  get(ref: ObjectRef): Promise<KubeObject | undefined> {
    return orUndefined(this.send<KubeObject>(describe('get', ref), ref, 'object', { method: 'GET' }));
  }

  /**
   * Every object of a kind, read in pages of LIST_PAGE_SIZE (`limit` and `continue`, as kubectl and client-go's
   * pager do): one answer of 20,000 objects is megabytes of text parsed in one piece, which held the event loop for
   * 0.3–0.4 s (and, at higher load, seconds) and the whole text and its parse in memory at once. A `continue` token
   * the server no longer holds (410 Expired, after etcd compaction) starts a full list, as client-go's pager does.
   */
  async list(query: {
    apiVersion: string;
    kind: string;
    namespace: string;
    labelSelector?: string;
    keep?(obj: KubeObject): boolean;
    listedAt?(resourceVersion: string): void;
  }) {
    const { apiVersion, kind, namespace, labelSelector, keep } = query;
    const page = (next: string | undefined, limit: number | undefined) =>
      this.send<{ items?: KubeObject[]; metadata?: { continue?: string } }>(
        `list ${apiVersion} ${kind}`,
        { apiVersion, kind, namespace, name: '' },
        'list',
        {
          method: 'GET',
          query: { labelSelector, limit: limit === undefined ? undefined : String(limit), continue: next },
        },
      );
    // Each item is named in place (it is this answer's own parse) and, with `keep`, dropped with its page: a copy
    // of each, or the unwanted ones held until the last page, were 20,000 more objects to collect after a list of
    // 20,000 — objects that had lived long enough to be promoted to the old generation.
    const { items, resourceVersion } = await readPages(page, (item) => {
      item.apiVersion = apiVersion;
      item.kind = kind;
      return keep === undefined || keep(item);
    });
    if (resourceVersion !== undefined) query.listedAt?.(resourceVersion);
    return items;
  }

  apply(obj: KubeObject, options: ApplyOptions): Promise<KubeObject> {
    const ref = refOfObject(obj);
    return this.send(describe('apply', ref), ref, 'object', {
      method: 'PATCH',
      query: {
        ...writeQuery(options),
        force: options.force === undefined ? undefined : String(options.force),
      },
      body: obj,
      contentType: SERVER_SIDE_APPLY,
    });
  }

  create(obj: KubeObject, options: WriteOptions): Promise<KubeObject> {
    const ref = refOfObject(obj);
    return this.send(describe('create', ref), ref, 'create', {
      method: 'POST',
      query: writeQuery(options),
      body: obj,
    });
  }

  replace(obj: KubeObject, options: WriteOptions): Promise<KubeObject> {
    const ref = refOfObject(obj);
    return this.send(describe('replace', ref), ref, 'object', {
      method: 'PUT',
      query: writeQuery(options),
      body: obj,
    });
  }

  async delete(ref: ObjectRef, options: { propagationPolicy: string; dryRun?: boolean }): Promise<boolean> {
    const deleted = await orUndefined(
      this.send(describe('delete', ref), ref, 'object', {
        method: 'DELETE',
        query: { dryRun: options.dryRun ? 'All' : undefined, propagationPolicy: options.propagationPolicy },
      }),
    );
    return deleted !== undefined;
  }

  async removeFinalizer(ref: ObjectRef, finalizer: string, current?: KubeObject): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const live = attempt === 0 && current !== undefined ? current : await this.get(ref);
      const index = live?.metadata.finalizers?.indexOf(finalizer) ?? -1;
      if (index < 0) return;
      try {
        await this.patchOutFinalizer(ref, finalizer, index);
        return;
      } catch (error) {
        if (isNotFound(error)) return;
        const retryable = isConflict(error) || (error as { statusCode?: number }).statusCode === 422;
        if (!retryable || attempt >= 4) throw error;
      }
    }
  }

  watch(
    targets: readonly WatchTarget[],
    onChange: (change: ObjectChange) => void,
    options: WatchOptions = {},
  ): ClusterWatch {
    // In pages, as `list` reads (one answer of 20,000 ConfigMaps was parsed in one piece: 0.1 s of CPU at 20,000,
    // 0.3 s at 50,000, when drift detection's live-state cache listed them). The watch starts at the first page's
    // resourceVersion: every page of one paged list is read at that version (a 410 Expired `continue` starts over,
    // unpaged, as `list` does).
    const list = async (target: WatchTarget): Promise<WatchList> => {
      const path = await this.api.pathOf({ ...target, name: '' }, 'list');
      const page = (next: string | undefined, limit: number | undefined) =>
        this.call<WatchList & { metadata?: { continue?: string } }>(
          `list ${target.apiVersion} ${target.kind}`,
          () =>
            this.http.request({
              method: 'GET',
              path,
              query: { limit: limit === undefined ? undefined : String(limit), continue: next },
            }),
        );
      const { items, resourceVersion } = await readPages(page);
      return { items, metadata: resourceVersion === undefined ? {} : { resourceVersion } };
    };
    return watchCollections(this.http, this.api, list, targets, onChange, this.watchTimeoutSeconds, options);
  }

  async podLogs(
    namespace: string,
    name: string,
    options: { tailLines: number; container?: string; previous?: boolean },
  ) {
    try {
      const { tailLines, container, previous } = options;
      const text = await this.inFlight.run(() =>
        this.http.text({
          method: 'GET',
          path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/log`,
          query: {
            tailLines: String(tailLines),
            container,
            previous: previous === undefined ? undefined : String(previous),
          },
          accept: '*/*',
        }),
      );
      const lines = text.split('\n');
      if (lines.at(-1) === '') lines.pop();
      return lines.slice(-options.tailLines);
    } catch (error) {
      const mapped = toClusterError(error, `logs of Pod ${namespace}/${name}`);
      if (isNotFound(mapped) || mapped.statusCode === 400) return [];
      throw mapped;
    }
  }

  /** JSON patch: test that the finalizer is still at `index`, then remove it (a concurrent change → 422/409). */
  private patchOutFinalizer(ref: ObjectRef, finalizer: string, index: number): Promise<unknown> {
    const path = `/metadata/finalizers/${index}`;
    const body = [
      { op: 'test', path, value: finalizer },
      { op: 'remove', path },
    ];
    return this.send(describe('remove finalizer from', ref), ref, 'object', {
      method: 'PATCH',
      query: { fieldManager: FIELD_MANAGER },
      body,
      contentType: JSON_PATCH,
    });
  }
}

/** The namespace of the current context of `kc`, 'default' when it names none (as client-node and kubectl). */
function contextNamespace(kc: KubeConfig): string {
  const context = kc.getContextObject(kc.getCurrentContext());
  return context?.namespace || 'default';
}

/** Builds the Cluster adapter for the current context of `kc`. */
export function createKubeCluster(kc: KubeConfig, options: KubeClusterOptions = {}): Cluster {
  return new KubeCluster(kc, options);
}

/** One page of a list: its items, and the `continue` token and resourceVersion of the list it belongs to. */
interface ListPage {
  items?: KubeObject[];
  metadata?: { continue?: string; resourceVersion?: string };
}

/**
 * Every page of one list, LIST_PAGE_SIZE at a time (`limit` and `continue`, as kubectl and client-go's pager do),
 * with the first page's resourceVersion (every page of a paged list is read at that version). A `continue` token the
 * server no longer holds (410 Expired, after etcd compaction) starts over with one full list, as client-go's pager
 * does. `accept` sees each item as its page arrives; those it refuses are not kept.
 */
async function readPages(
  page: (next: string | undefined, limit: number | undefined) => Promise<ListPage>,
  accept: (item: KubeObject) => boolean = () => true,
): Promise<{ items: KubeObject[]; resourceVersion: string | undefined }> {
  const items: KubeObject[] = [];
  let resourceVersion: string | undefined;
  let next: string | undefined;
  let limit: number | undefined = LIST_PAGE_SIZE;
  do {
    let answer: ListPage;
    try {
      answer = await page(next, limit);
    } catch (error) {
      if (next === undefined || !(error instanceof ClusterError) || error.statusCode !== 410) throw error;
      items.length = 0;
      next = undefined;
      limit = undefined;
      resourceVersion = undefined;
      continue;
    }
    for (const item of answer.items ?? []) if (accept(item)) items.push(item);
    resourceVersion ??= answer.metadata?.resourceVersion;
    next = answer.metadata?.continue || undefined;
  } while (next !== undefined);
  return { items, resourceVersion };
}
