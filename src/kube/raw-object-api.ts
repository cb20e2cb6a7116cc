/**
 * RawObjectApi — @kubernetes/client-node's KubernetesObjectApi for discovery (its per-apiVersion cache of
 * APIResourceLists) and the paths it implies; the requests themselves go through KubeHttp (kube-http.ts).
 * client-node 1.4.0 re-serialises every body through its typed models, which drops fields it does not know
 * (breaking `Validate=false` and CRD schemas' `x-kubernetes-*` keys) and calls `toISOString()` on timestamp
 * strings; responses come back as typed models with `Date` objects. What still goes through client-node here
 * (discovery) is answered as the plain JSON the server sent. Errors are client-node's ApiException.
 */
import http from 'node:http';
import https from 'node:https';
import {
  type Configuration,
  createConfiguration,
  type KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  type Middleware,
  type ResponseContext,
  ServerConfiguration,
  type V1APIResource,
} from '@kubernetes/client-node';
import { retryingHttpLibrary } from './retrying-http.js';

/**
 * A client-node API client for the current context of `kc` (as `kc.makeApiClient` builds it) whose every request
 * is aborted after `requestTimeoutMs` ms without a complete answer: client-node sets no timeout, so a silent
 * network (a dropped connection without RST, a stuck proxy) would otherwise hang a sync forever. The abort
 * surfaces as node-fetch's `AbortError`, which the adapter maps to a transient ClusterError (retried). Requests
 * share one keep-alive connection pool per client (client-node alone opens a connection per request).
 * @throws Error('No active cluster!') when the kubeconfig has no current cluster, as makeApiClient does.
 */
export function apiClient<T>(
  kc: KubeConfig,
  Type: new (configuration: Configuration) => T,
  requestTimeoutMs: number,
): T {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('No active cluster!');
  let shared: http.Agent | undefined;
  const timeout: Middleware = {
    pre: async (context) => {
      context.setSignal(AbortSignal.timeout(requestTimeoutMs));
      // client-node builds a new Agent for every request: a new TCP connection (and TLS handshake) each time.
      // The first one's options (CA, client certificate, TLS checks) make one keep-alive Agent for all requests.
      const agent = context.getAgent();
      if (
        agent instanceof http.Agent &&
        (agent.constructor === http.Agent || agent.constructor === https.Agent)
      ) {
        const Agent = agent.constructor as typeof http.Agent;
        shared ??= new Agent({
          ...(agent as http.Agent & { options: http.AgentOptions }).options,
          keepAlive: true,
        });
        context.setAgent(shared);
      }
      return context;
    },
    post: async (response) => response,
  };
  const configuration = createConfiguration({
    baseServer: new ServerConfiguration(cluster.server, {}),
    authMethods: { default: kc },
    promiseMiddleware: [timeout],
    // GETs (discovery included) retried per request on transient trouble (retrying-http.ts).
    httpApi: retryingHttpLibrary({ requestTimeoutMs }),
  });
  return new Type(configuration);
}

/** Plain JSON of whatever client-node returned (typed models → wire-like objects, Dates → ISO strings). */
export function toPlainJson<T>(value: unknown): T {
  return (value === undefined ? undefined : JSON.parse(JSON.stringify(value))) as T;
}

export class RawObjectApi extends KubernetesObjectApi {
  /** Builds the API for the current context of `kc`; `requestTimeoutMs` bounds each request (see apiClient). */
  static forConfig(kc: KubeConfig, requestTimeoutMs: number): RawObjectApi {
    const api = apiClient(kc, RawObjectApi, requestTimeoutMs);
    api.setDefaultNamespace(kc);
    return api;
  }

  /**
   * A 2xx answer as the server's plain JSON (client-node would deserialise it into typed models, which callers
   * then had to turn back into JSON: the dominant CPU cost of a big sync). Anything else: client-node's handling
   * (ApiException with the Status body).
   */
  protected override async processResponse<T extends KubernetesObject>(
    response: ResponseContext,
    type?: string,
  ): Promise<T> {
    if (response.httpStatusCode < 200 || response.httpStatusCode > 299)
      return super.processResponse(response, type);
    return JSON.parse(await response.body.text()) as T;
  }

  /** Discovery requests in flight, by apiVersion and kind: concurrent misses share one. */
  private readonly discovering = new Map<string, Promise<V1APIResource | undefined>>();

  /**
   * client-node's discovery with concurrent cache misses for one kind sharing one request: a burst of requests
   * for a kind not yet discovered (a wave's first run, a CRD just created) sent one discovery request each.
   */
  override resource(
    apiVersion: string,
    kind: string,
    options?: Configuration,
  ): Promise<V1APIResource | undefined> {
    const cached = this.apiVersionResourceCache[apiVersion]?.resources.find((r) => r.kind === kind);
    if (cached) return Promise.resolve(cached);
    const key = `${apiVersion} ${kind}`;
    let pending = this.discovering.get(key);
    if (pending === undefined) {
      pending = super.resource(apiVersion, kind, options).finally(() => this.discovering.delete(key));
      this.discovering.set(key, pending);
    }
    return pending;
  }

  /** Discovery (cached per apiVersion by client-node, refetched on a cache miss for the kind). */
  discover(apiVersion: string, kind: string): Promise<V1APIResource | undefined> {
    return this.resource(apiVersion, kind);
  }

  /** All resources of one apiVersion (fresh discovery request). */
  async resourceList(apiVersion: string): Promise<V1APIResource[]> {
    delete this.apiVersionResourceCache[apiVersion];
    await this.resource(apiVersion, '');
    return this.apiVersionResourceCache[apiVersion]?.resources ?? [];
  }

  /**
   * The request path for `action` on `ref`: `/api[s]/<apiVersion>[/namespaces/<ns>]/<plural>[/<name>]` — the
   * object's (`object`), or its collection's (`create`, `list`); the kind's plural and scope from discovery
   * (cached; a cache miss for the kind asks the server again). A namespaced kind without a namespace gets the
   * context's default namespace, except for `list` (all namespaces), as client-node's own requests do.
   * @throws Error('Unrecognized API version and kind: …') when the server does not serve the kind.
   */
  async pathOf(
    ref: { apiVersion: string; kind: string; namespace: string; name: string },
    action: 'object' | 'create' | 'list',
  ): Promise<string> {
    const resource = await this.resource(ref.apiVersion, ref.kind);
    if (!resource) throw new Error(`Unrecognized API version and kind: ${ref.apiVersion} ${ref.kind}`);
    const namespace = ref.namespace || (action === 'list' ? '' : this.defaultNamespace);
    const base = this.apiVersionPath(ref.apiVersion);
    const collection =
      resource.namespaced && namespace !== ''
        ? `${base}/namespaces/${encodeURIComponent(namespace)}/${resource.name}`
        : `${base}/${resource.name}`;
    return action === 'object' ? `${collection}/${encodeURIComponent(ref.name)}` : collection;
  }
}

export type { KubernetesObject };
