/**
 * KubeDiscovery — which resources the API server serves, over KubeHttp.
 *
 * - **Everything served** (`served()`, what listKinds reads): the aggregated discovery documents, `GET /api` and
 *   `GET /apis` asked for as `apidiscovery.k8s.io/v2` `APIGroupDiscoveryList`s (Kubernetes ≥ 1.26, GA in 1.30;
 *   what kubectl and client-go ask for first): two requests, side by side, hold every group, version and resource.
 *   A server that answers the legacy form (an older one, or one without it) is walked as before: the `APIVersions`
 *   and `APIGroupList` it answered, then one APIResourceList per preferred group version. A preferred group version
 *   the aggregated document marks `Stale` (an aggregated API server it could not reach) is asked for on its own, any
 *   other Stale version left out.
 * - **One kind** (`resource()`): the cached APIResourceList of its apiVersion, filled by `served()` for every group
 *   version, or by `GET /api/v1` or `/apis/<group>/<version>` (a legacy APIResourceList); asked again when the kind is
 *   not in the cached list (a CRD created since), as client-node's KubernetesObjectApi did. A miss while `served()`
 *   is under way waits for it rather than asking for the same list beside it; concurrent misses for one kind share
 *   one request.
 *
 * Also the request paths that discovery implies. Its GETs are retried on transient trouble by KubeHttp.
 */
import type { KubeHttp } from './kube-http.js';

/** One entry of an APIResourceList. */
export interface ApiResourceEntry {
  name: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
}

/** A served group: its versions in the server's order of preference (core: the group ''). */
export interface ServedGroup {
  name: string;
  versions: { apiVersion: string; resources: ApiResourceEntry[] }[];
}

interface ApiResourceList {
  resources?: ApiResourceEntry[];
}

/** The media type of aggregated discovery, then plain JSON (the legacy documents) for a server without it. */
export const AGGREGATED_DISCOVERY_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';

/** What `/api` or `/apis` answers: an APIGroupDiscoveryList, or the legacy APIVersions / APIGroupList. */
interface DiscoveryRoot {
  kind?: string;
  apiVersion?: string;
  /** APIGroupDiscoveryList */
  items?: {
    metadata?: { name?: string };
    versions?: {
      version: string;
      freshness?: string;
      resources?: {
        resource: string;
        responseKind?: { kind?: string } | null;
        scope?: string;
        verbs?: string[];
      }[];
    }[];
  }[];
  /** APIVersions (`/api`) */
  versions?: string[];
  /** APIGroupList (`/apis`) */
  groups?: { name: string; preferredVersion?: { groupVersion?: string } }[];
}

function isAggregated(root: DiscoveryRoot | undefined): root is DiscoveryRoot & { items: unknown[] } {
  return (
    root?.kind === 'APIGroupDiscoveryList' &&
    root.apiVersion === 'apidiscovery.k8s.io/v2' &&
    Array.isArray(root.items)
  );
}

/** `/api/v1` for the core group, `/apis/<group>/<version>` otherwise. */
function apiVersionPath(apiVersion: string): string {
  return apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
}

export class KubeDiscovery {
  private readonly http: KubeHttp;
  /** The namespace of the kubeconfig's current context ('default' when it names none). */
  readonly defaultNamespace: string;
  private readonly cache = new Map<string, ApiResourceEntry[]>();
  /** Discovery requests in flight, by apiVersion and kind: concurrent misses share one. */
  private readonly discovering = new Map<string, Promise<ApiResourceEntry | undefined>>();
  /** `served()` under way: a miss waits for it (it fills the cache) instead of asking beside it. */
  private serving: Promise<ServedGroup[]> | undefined;

  constructor(http: KubeHttp, defaultNamespace: string) {
    this.http = http;
    this.defaultNamespace = defaultNamespace;
  }

  /**
   * The resource serving `kind` in `apiVersion`, undefined when the apiVersion is served without it.
   * @throws ApiException 404 when the apiVersion is not served at all (and any other failure of the request).
   */
  resource(apiVersion: string, kind: string): Promise<ApiResourceEntry | undefined> {
    const cached = this.cached(apiVersion, kind);
    if (cached) return Promise.resolve(cached);
    const key = `${apiVersion} ${kind}`;
    let pending = this.discovering.get(key);
    if (pending === undefined) {
      const serving = this.serving;
      pending = (
        serving
          ? serving.then(
              () => this.cached(apiVersion, kind),
              () => undefined,
            )
          : Promise.resolve()
      )
        .then(async (found) => found ?? (await this.fetch(apiVersion)).find((r) => r.kind === kind))
        .finally(() => this.discovering.delete(key));
      this.discovering.set(key, pending);
    }
    return pending;
  }

  private cached(apiVersion: string, kind: string): ApiResourceEntry | undefined {
    return this.cache.get(apiVersion)?.find((r) => r.kind === kind);
  }

  /**
   * Every group the server serves, each with its versions in order of preference and their resources (fresh
   * requests; the cache takes the answers). Aggregated discovery when the server answers it: every version of
   * every group; else the legacy walk: each group's preferred version. Concurrent calls share one.
   */
  served(): Promise<ServedGroup[]> {
    if (this.serving === undefined) {
      const serving = this.fetchServed().finally(() => {
        if (this.serving === serving) this.serving = undefined;
      });
      this.serving = serving;
    }
    return this.serving;
  }

  private async fetchServed(): Promise<ServedGroup[]> {
    const root = (path: string) =>
      this.http.request<DiscoveryRoot | undefined>({
        method: 'GET',
        path,
        accept: AGGREGATED_DISCOVERY_ACCEPT,
      });
    const [core, named] = await Promise.all([root('/api'), root('/apis')]);
    const legacyCore = (core?.versions ?? ['v1']).slice(0, 1).map((version) => ({ name: '', version }));
    const legacyNamed = (named?.groups ?? []).flatMap((g) =>
      g.preferredVersion?.groupVersion ? [{ name: g.name, version: g.preferredVersion.groupVersion }] : [],
    );
    const groups = await Promise.all([
      ...(isAggregated(core) ? this.aggregatedGroups(core) : legacyCore.map((g) => this.legacyGroup(g))),
      ...(isAggregated(named) ? this.aggregatedGroups(named) : legacyNamed.map((g) => this.legacyGroup(g))),
    ]);
    return groups;
  }

  /** A group of the legacy walk: its preferred version's APIResourceList. */
  private async legacyGroup(group: { name: string; version: string }): Promise<ServedGroup> {
    return {
      name: group.name,
      versions: [{ apiVersion: group.version, resources: await this.fetch(group.version) }],
    };
  }

  /**
   * The groups of an APIGroupDiscoveryList, in the legacy entries' shape. A Stale preferred version is asked for on
   * its own; any other Stale version is left out (as the legacy walk never asked it): its server being down fails
   * nothing, and a kind of it is asked for when looked up (`resource()`).
   */
  private aggregatedGroups(list: DiscoveryRoot): Promise<ServedGroup>[] {
    return (list.items ?? []).map(async (item) => {
      const name = item.metadata?.name ?? '';
      const versions = await Promise.all(
        (item.versions ?? [])
          .filter((v, i) => i === 0 || v.freshness !== 'Stale')
          .map(async (v) => {
            const apiVersion = name === '' ? v.version : `${name}/${v.version}`;
            if (v.freshness === 'Stale') return { apiVersion, resources: await this.fetch(apiVersion) };
            const resources = (v.resources ?? []).flatMap((r) =>
              r.responseKind?.kind
                ? [
                    {
                      name: r.resource,
                      kind: r.responseKind.kind,
                      namespaced: r.scope === 'Namespaced',
                      verbs: r.verbs ?? [],
                    },
                  ]
                : [],
            );
            this.cache.set(apiVersion, resources);
            return { apiVersion, resources };
          }),
      );
      return { name, versions };
    });
  }

  private async fetch(apiVersion: string): Promise<ApiResourceEntry[]> {
    const list = await this.http.request<ApiResourceList | undefined>({
      method: 'GET',
      path: apiVersionPath(apiVersion),
    });
    const resources = list?.resources ?? [];
    this.cache.set(apiVersion, resources);
    return resources;
  }

  /**
   * The request path for `action` on `ref`: `/api[s]/<apiVersion>[/namespaces/<ns>]/<plural>[/<name>]` — the
   * object's (`object`), or its collection's (`create`, `list`); the kind's plural and scope from discovery. A
   * namespaced kind without a namespace gets the context's default namespace, except for `list` (all namespaces).
   * @throws Error('Unrecognized API version and kind: …') when the server does not serve the kind.
   */
  async pathOf(
    ref: { apiVersion: string; kind: string; namespace: string; name: string },
    action: 'object' | 'create' | 'list',
  ): Promise<string> {
    const resource = await this.resource(ref.apiVersion, ref.kind);
    if (!resource) throw new Error(`Unrecognized API version and kind: ${ref.apiVersion} ${ref.kind}`);
    return this.pathFrom(resource, ref, action);
  }

  /** `pathOf` when discovery already knows the kind (no request, no turn of the event loop); else undefined. */
  cachedPathOf(
    ref: { apiVersion: string; kind: string; namespace: string; name: string },
    action: 'object' | 'create' | 'list',
  ): string | undefined {
    const resource = this.cached(ref.apiVersion, ref.kind);
    return resource === undefined ? undefined : this.pathFrom(resource, ref, action);
  }

  private pathFrom(
    resource: ApiResourceEntry,
    ref: { apiVersion: string; namespace: string; name: string },
    action: 'object' | 'create' | 'list',
  ): string {
    const namespace = ref.namespace || (action === 'list' ? '' : this.defaultNamespace);
    const base = apiVersionPath(ref.apiVersion);
    const collection =
      resource.namespaced && namespace !== ''
        ? `${base}/namespaces/${encodeURIComponent(namespace)}/${resource.name}`
        : `${base}/${resource.name}`;
    return action === 'object' ? `${collection}/${encodeURIComponent(ref.name)}` : collection;
  }
}
