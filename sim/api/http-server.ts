/**
 * The node:http server: a small router from URL to discovery documents or resource handlers, with every
 * error answered as a Kubernetes `Status`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { answerFault, type Fault } from '../faults.js';
import {
  AGGREGATED_DISCOVERY_TYPE,
  aggregatedDiscovery,
  apiGroup,
  apiGroupList,
  apiResourceList,
  coreApiVersions,
  SERVER_VERSION,
  wantsAggregatedDiscovery,
} from './discovery.js';
import { sendJson, sendStatus } from './http-io.js';
import {
  OPENAPI_V2_JSON,
  OPENAPI_V2_PROTOBUF_BODY,
  openApiV3GroupVersion,
  openApiV3Root,
} from './openapi.js';
import { handleResource, type ResourceContext } from './resource-handler.js';
import { parseRoute, type Route } from './route.js';
import { resourceNotServed, StatusError } from './status-error.js';
import type { TypeRegistry } from './type-registry.js';

export interface ApiServerDeps extends ResourceContext {
  registry: TypeRegistry;
  /**
   * Called for every request (method, path, status code, the bearer token it came with) — the simulator's request
   * log.
   */
  onRequest?: (method: string, path: string, code: number, user: string | undefined) => void;
  /** Whether /api and /apis answer the aggregated form when asked for it (false: an API server before 1.26). */
  aggregatedDiscovery: boolean;
  /** Fault injection: asked for every request; a fault is answered instead of serving it (see sim/faults.ts). */
  fault?: () => Fault | undefined;
}

export function createApiServer(deps: ApiServerDeps): Server {
  return createServer((req, res) => {
    res.on('finish', () =>
      deps.onRequest?.(
        req.method ?? 'GET',
        req.url ?? '',
        res.statusCode,
        bearerOf(req.headers.authorization),
      ),
    );
    const fault = deps.fault?.();
    if (fault) return answerFault(req, res, fault);
    handle(req, res, deps).catch((error: unknown) => {
      const status =
        error instanceof StatusError
          ? error
          : new StatusError(500, 'InternalError', `Internal error occurred: ${(error as Error).message}`);
      if (!res.headersSent) sendStatus(res, status);
      else res.end();
    });
  });
}

async function handle(req: IncomingMessage, res: ServerResponse, deps: ApiServerDeps): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sim');
  if (url.pathname.startsWith('/openapi/')) return serveOpenApi(req, res, url.pathname, deps.registry);
  const route = parseRoute(url.pathname);
  if (!route) throw resourceNotServed();
  if (route.kind === 'resource') {
    const type = deps.registry.find(route.group, route.version, route.plural);
    if (!type || (route.namespace !== undefined && !type.namespaced)) throw resourceNotServed();
    return handleResource(req, res, url, route, type, deps);
  }
  if (req.method !== 'GET')
    throw new StatusError(
      405,
      'MethodNotAllowed',
      'the server does not allow this method on the requested resource',
      {},
    );
  // /api and /apis are answered by what the Accept asks for (and say that they vary by it, as the API server does).
  if (route.kind === 'coreVersions' || route.kind === 'groupList') {
    res.setHeader('Vary', 'Accept');
    if (deps.aggregatedDiscovery && wantsAggregatedDiscovery(req.headers.accept)) {
      const document = aggregatedDiscovery(deps.registry.all(), route.kind === 'coreVersions');
      return sendJson(res, 200, document, [], AGGREGATED_DISCOVERY_TYPE);
    }
  }
  sendJson(res, 200, discoveryDocument(route, deps.registry));
}

function serveOpenApi(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  registry: TypeRegistry,
): void {
  if (pathname === '/openapi/v2') {
    if ((req.headers.accept ?? '').includes('protobuf')) {
      res.writeHead(200, {
        // kube-openapi answers protobuf as application/octet-stream: the '@' in the requested media type does not
        // parse as a MIME type, and kubectl 1.20 rejects such a response (mime: unexpected content after media subtype).
        'Content-Type': 'application/octet-stream',
        'Content-Length': OPENAPI_V2_PROTOBUF_BODY.length,
      });
      res.end(OPENAPI_V2_PROTOBUF_BODY);
      return;
    }
    sendJson(res, 200, OPENAPI_V2_JSON);
    return;
  }
  const document =
    pathname === '/openapi/v3'
      ? openApiV3Root(registry.all())
      : openApiV3GroupVersion(pathname.slice('/openapi/v3/'.length), registry.all());
  if (!document) throw resourceNotServed();
  sendJson(res, 200, document);
}

function discoveryDocument(route: Exclude<Route, { kind: 'resource' }>, registry: TypeRegistry): object {
  const types = registry.all();
  switch (route.kind) {
    case 'version':
      return SERVER_VERSION;
    case 'coreVersions':
      return coreApiVersions();
    case 'groupList':
      return apiGroupList(types);
    case 'group': {
      const versions = [...new Set(types.filter((t) => t.group === route.group).map((t) => t.version))];
      if (versions.length === 0) throw resourceNotServed();
      return apiGroup(route.group, versions);
    }
    case 'resourceList': {
      const matching = types.filter((t) => t.group === route.group && t.version === route.version);
      if (matching.length === 0) throw resourceNotServed();
      return apiResourceList(
        route.group === '' ? route.version : `${route.group}/${route.version}`,
        matching,
      );
    }
  }
}

/** The token of an `Authorization: Bearer <token>` header. */
function bearerOf(authorization: string | undefined): string | undefined {
  return authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : undefined;
}
