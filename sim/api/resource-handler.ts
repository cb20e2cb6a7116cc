/**
 * Dispatch of a resource request (`/api/v1/...`, `/apis/g/v/...`) to the verbs: GET (item, list, watch, pod
 * log), POST, PUT, PATCH, DELETE (item and collection).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../store/kube-object.js';
import type { ObjectStore } from '../store/object-store.js';
import { deleteObject, parseDeleteOptions } from './delete-object.js';
import { decodeBody, mediaType, readBody, sendJson, sendText } from './http-io.js';
import type { ObjectApi } from './object-api.js';
import { parseRequestOptions } from './request-options.js';
import { apiVersionOf, type ResourceType } from './resource-type.js';
import type { ResourceRoute } from './route.js';
import { methodNotAllowed, resourceNotServed } from './status-error.js';
import type { CustomResourceType } from './type-registry.js';
import { serveWatch } from './watch-stream.js';

/** Reads a pod's log: (namespace, pod, container?, tailLines?, previous?) → text; throws StatusError. */
type PodLogReader = (
  namespace: string,
  name: string,
  container: string | undefined,
  tailLines: number | undefined,
  previous: boolean,
) => string;

export interface ResourceContext {
  store: ObjectStore;
  objects: ObjectApi;
  readLog: PodLogReader;
  bookmarkIntervalMs: number;
  trackWatch: (res: ServerResponse) => () => void;
}

export async function handleResource(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  route: ResourceRoute,
  type: CustomResourceType,
  ctx: ResourceContext,
): Promise<void> {
  const { namespace, name, subresource } = route;
  const query = url.searchParams;
  if (
    subresource !== undefined &&
    !type.subresources.includes(subresource) &&
    !(type.kind === 'Namespace' && subresource === 'finalize')
  ) {
    throw resourceNotServed();
  }
  const method = req.method ?? 'GET';
  if (method === 'GET') return handleGet(req, res, route, type, query, ctx);
  const body = decodeBody(await readBody(req), mediaType(req));
  const options = parseRequestOptions(query, req.headers['user-agent']);
  if (method === 'POST' && name === undefined) {
    return sendJson(
      res,
      options.dryRun ? 200 : 201,
      ctx.objects.create(type, namespace, body, options),
      options.warnings,
    );
  }
  if (method === 'PUT' && name !== undefined) {
    const sub = subresource === 'finalize' ? undefined : subresource;
    return sendJson(
      res,
      200,
      ctx.objects.replace(type, namespace, name, body, options, sub),
      options.warnings,
    );
  }
  if (method === 'PATCH' && name !== undefined) {
    const existed = ctx.objects.exists(type, namespace, name);
    const patched = ctx.objects.patch(type, namespace, name, mediaType(req), body, options, subresource);
    return sendJson(res, existed || options.dryRun ? 200 : 201, patched, options.warnings);
  }
  if (method === 'DELETE') {
    const deleteOptions = parseDeleteOptions(query, body);
    if (name === undefined) {
      const victims = ctx.objects.list(type, namespace, {
        labelSelector: query.get('labelSelector'),
        fieldSelector: query.get('fieldSelector'),
      });
      const items = victims.map(
        (v) =>
          deleteObject(ctx.store, type, v.metadata.namespace, v.metadata.name ?? '', deleteOptions).object,
      );
      return sendJson(res, 200, listOf(type, items, ctx.store.resourceVersion));
    }
    const result = deleteObject(ctx.store, type, namespace, name, deleteOptions);
    return sendJson(res, result.removed ? 200 : 202, result.object);
  }
  throw methodNotAllowed();
}

async function handleGet(
  req: IncomingMessage,
  res: ServerResponse,
  route: ResourceRoute,
  type: CustomResourceType,
  query: URLSearchParams,
  ctx: ResourceContext,
): Promise<void> {
  const { namespace, name, subresource } = route;
  if (subresource === 'log' && name !== undefined && namespace !== undefined) {
    const tail = query.get('tailLines');
    return sendText(
      res,
      200,
      ctx.readLog(
        namespace,
        name,
        query.get('container') ?? undefined,
        tail === null ? undefined : Number(tail),
        query.get('previous') === 'true',
      ),
    );
  }
  if (name !== undefined) return sendJson(res, 200, ctx.objects.get(type, namespace, name));
  const watch = query.get('watch');
  if (watch === '1' || watch === 'true') {
    const untrack = ctx.trackWatch(res);
    return serveWatch(req, res, {
      store: ctx.store,
      type,
      namespace,
      query,
      bookmarkIntervalMs: ctx.bookmarkIntervalMs,
      onEnd: untrack,
    });
  }
  const items = ctx.objects.scan(type, namespace, {
    labelSelector: query.get('labelSelector'),
    fieldSelector: query.get('fieldSelector'),
  });
  const resourceVersion = ctx.store.resourceVersion;
  const limit = Number(query.get('limit') ?? '0');
  const start = Number(query.get('continue') ?? '0') || 0;
  if (limit > 0 && items.length - start > limit) {
    return sendJson(
      res,
      200,
      listOf(
        type,
        items.slice(start, start + limit),
        resourceVersion,
        String(start + limit),
        items.length - start - limit,
      ),
    );
  }
  return sendJson(res, 200, listOf(type, items.slice(start), resourceVersion));
}

/** A `<Kind>List`; items carry no apiVersion/kind, exactly as kube-apiserver serializes list items. */
function listOf(
  type: ResourceType,
  items: readonly KubeObject[],
  resourceVersion: number,
  next?: string,
  remaining?: number,
): object {
  const metadata: Record<string, unknown> = { resourceVersion: String(resourceVersion) };
  if (next) {
    metadata.continue = next;
    metadata.remainingItemCount = remaining;
  }
  const bare = items.map(({ apiVersion: _a, kind: _k, ...rest }) => rest);
  return { kind: `${type.kind}List`, apiVersion: apiVersionOf(type), metadata, items: bare };
}
