/**
 * RawObjectApi — @kubernetes/client-node's KubernetesObjectApi (URL building, discovery cache, auth, TLS) with
 * the wire body under our control. client-node 1.4.0 re-serialises every body through its typed models, which
 * drops fields it does not know (breaking `Validate=false` and CRD schemas' `x-kubernetes-*` keys) and calls
 * `toISOString()` on timestamp strings; responses come back as typed models with `Date` objects. Here the
 * request body is sent exactly as given, extra query parameters can be added, and successful responses are
 * returned as the plain JSON the server sent (parsed once: no typed-model round trip, no per-object
 * re-serialisation). Errors are client-node's ApiException, as before.
 */
import http from 'node:http';
import https from 'node:https';
import {
  type Configuration,
  createConfiguration,
  type HttpMethod,
  type KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  type Middleware,
  RequestContext,
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

/** A request context that ignores client-node's serialised body when a raw one was given. */
class RawBodyRequestContext extends RequestContext {
  private readonly rawBody: string | undefined;

  constructor(url: string, method: HttpMethod, rawBody: string | undefined) {
    super(url, method);
    this.rawBody = rawBody;
  }

  override setBody(body: Parameters<RequestContext['setBody']>[0]): void {
    super.setBody(this.rawBody ?? body);
  }
}

/** Per-request overrides: the exact JSON body to send and extra query parameters. */
export interface RawRequest {
  body?: unknown;
  query?: Record<string, string>;
}

/** Plain JSON of whatever client-node returned (typed models → wire-like objects, Dates → ISO strings). */
export function toPlainJson<T>(value: unknown): T {
  return (value === undefined ? undefined : JSON.parse(JSON.stringify(value))) as T;
}

export class RawObjectApi extends KubernetesObjectApi {
  private server = '';

  /** Builds the API for the current context of `kc`; `requestTimeoutMs` bounds each request (see apiClient). */
  static forConfig(kc: KubeConfig, requestTimeoutMs: number): RawObjectApi {
    const api = apiClient(kc, RawObjectApi, requestTimeoutMs);
    api.server = kc.getCurrentCluster()?.server ?? '';
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

  /** The collection path of a kind: `/apis/<g>/<v>[/namespaces/<ns>]/<plural>`. */
  collectionPath(apiVersion: string, plural: string, namespace: string): string {
    const base = this.apiVersionPath(apiVersion);
    return namespace === '' ? `${base}/${plural}` : `${base}/namespaces/${namespace}/${plural}`;
  }

  /** The configuration to pass as `options` for one request with raw overrides. */
  rawOptions(request: RawRequest): Configuration {
    const { body, query = {} } = request;
    const rawBody = body === undefined ? undefined : JSON.stringify(body);
    const server = this.server;
    return {
      ...this.configuration,
      baseServer: {
        makeRequestContext(endpoint: string, method: HttpMethod): RequestContext {
          const context = new RawBodyRequestContext(server + endpoint, method, rawBody);
          for (const [key, value] of Object.entries(query)) context.setQueryParam(key, value);
          return context;
        },
      },
    };
  }
}

export type { KubernetesObject };
