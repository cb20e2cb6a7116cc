/**
 * The operator endpoints every wavesync process serves: `GET /healthz` (Redis ping + version, and `serve`'s worker
 * thread; 200 or 503, JSON)
 * and `GET /metrics` (Prometheus text), plus Bull Board under `/admin/queues` when enabled. They are plain
 * node:http handlers, so the bot mounts them on Bolt's receiver (`customRoutes`) and the worker on its own small
 * server (ops-server.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Metrics } from './metrics.js';

/** One endpoint. `prefix: true` also matches every path below `path` (`/admin/queues/api/...`). */
export interface OpsRoute {
  path: string;
  method: string[];
  prefix?: boolean;
  handler(req: IncomingMessage, res: ServerResponse): void;
}

export interface OpsRoutesDeps {
  /** wavesync version shown by /healthz. */
  version: string;
  /** Which process answers: serve, bot or worker. */
  role: string;
  /** Resolves when Redis answers PING; rejects otherwise. */
  pingRedis(): Promise<void>;
  metrics: Metrics;
  /**
   * `serve`: the state of its worker thread, `up` or why not (`starting`, `restarting: …`); /healthz is 503
   * unless it is up.
   */
  worker?: () => string;
  /** Bull Board's handler, when enabled. */
  admin?: OpsRoute;
}

/** Redis must answer within this long (ms) for /healthz to be 200. */
const PING_TIMEOUT_MS = 1000;

/** The routes for `deps`. */
export function opsRoutes(deps: OpsRoutesDeps): OpsRoute[] {
  const routes: OpsRoute[] = [
    { path: '/healthz', method: ['GET'], handler: (_req, res) => void healthz(deps, res) },
    { path: '/metrics', method: ['GET'], handler: (_req, res) => void metrics(deps, res) },
  ];
  return deps.admin ? [...routes, deps.admin] : routes;
}

async function healthz(deps: OpsRoutesDeps, res: ServerResponse): Promise<void> {
  const redis = await withTimeout(deps.pingRedis(), PING_TIMEOUT_MS).then(
    () => 'ok',
    (error: unknown) => `unreachable: ${error instanceof Error ? error.message : String(error)}`,
  );
  const worker = deps.worker?.();
  const ok = redis === 'ok' && (worker === undefined || worker === 'up');
  res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json; charset=utf-8' });
  res.end(
    JSON.stringify({
      status: ok ? 'ok' : 'unavailable',
      version: deps.version,
      role: deps.role,
      redis,
      ...(worker === undefined ? {} : { worker }),
    }),
  );
}

async function metrics(deps: OpsRoutesDeps, res: ServerResponse): Promise<void> {
  try {
    const { contentType, body } = await deps.metrics.render();
    res.writeHead(200, { 'content-type': contentType });
    res.end(body);
  } catch (error) {
    res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`metrics unavailable: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

/** The route of `routes` that answers `method path`, if any. */
export function matchOpsRoute(
  routes: readonly OpsRoute[],
  method: string,
  path: string,
): OpsRoute | undefined {
  return routes.find(
    (r) =>
      r.method.includes(method) && (path === r.path || (r.prefix === true && path.startsWith(`${r.path}/`))),
  );
}

/** The routes in Bolt's `customRoutes` shape (path-to-regexp 8 patterns for prefix routes). */
export function toBoltCustomRoutes(routes: readonly OpsRoute[]) {
  return routes.flatMap((r) => {
    const exact = { path: r.path, method: r.method, handler: r.handler };
    return r.prefix ? [exact, { ...exact, path: `${r.path}/*rest` }] : [exact];
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
