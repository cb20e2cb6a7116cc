/**
 * KubeDiscovery — which resources the API server serves, over KubeHttp: `GET /api/v1` or `/apis/<group>/<version>`
 * (an APIResourceList) cached per apiVersion and asked again when a kind is not in the cached list (a CRD created
 * since), as client-node's KubernetesObjectApi did; concurrent misses for one kind share one request. Also the
 * request paths that discovery implies. Its GETs are retried on transient trouble by KubeHttp.
 */
import type { KubeHttp } from './kube-http.js';

/** One entry of an APIResourceList. */
export interface ApiResourceEntry {
  name: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
}

interface ApiResourceList {
  resources?: ApiResourceEntry[];
}

/** `/api/v1` for the core group, `/apis/<group>/<version>` otherwise. */
export function apiVersionPath(apiVersion: string): string {
  return apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
}

export class KubeDiscovery {
  private readonly http: KubeHttp;
  /** The namespace of the kubeconfig's current context ('default' when it names none). */
  readonly defaultNamespace: string;
  private readonly cache = new Map<string, ApiResourceEntry[]>();
  /** Discovery requests in flight, by apiVersion and kind: concurrent misses share one. */
  private readonly discovering = new Map<string, Promise<ApiResourceEntry | undefined>>();

  constructor(http: KubeHttp, defaultNamespace: string) {
    this.http = http;
    this.defaultNamespace = defaultNamespace;
  }

  /**
   * The resource serving `kind` in `apiVersion`, undefined when the apiVersion is served without it.
   * @throws ApiException 404 when the apiVersion is not served at all (and any other failure of the request).
   */
  resource(apiVersion: string, kind: string): Promise<ApiResourceEntry | undefined> {
    const cached = this.cache.get(apiVersion)?.find((r) => r.kind === kind);
    if (cached) return Promise.resolve(cached);
    const key = `${apiVersion} ${kind}`;
    let pending = this.discovering.get(key);
    if (pending === undefined) {
      pending = this.fetch(apiVersion)
        .then((resources) => resources.find((r) => r.kind === kind))
        .finally(() => this.discovering.delete(key));
      this.discovering.set(key, pending);
    }
    return pending;
  }

  /** All resources of one apiVersion (a fresh request; the cache takes the answer). */
  async resourceList(apiVersion: string): Promise<ApiResourceEntry[]> {
    return this.fetch(apiVersion);
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
    const namespace = ref.namespace || (action === 'list' ? '' : this.defaultNamespace);
    const base = apiVersionPath(ref.apiVersion);
    const collection =
      resource.namespaced && namespace !== ''
        ? `${base}/namespaces/${encodeURIComponent(namespace)}/${resource.name}`
        : `${base}/${resource.name}`;
    return action === 'object' ? `${collection}/${encodeURIComponent(ref.name)}` : collection;
  }
}
