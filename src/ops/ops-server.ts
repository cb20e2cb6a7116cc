/**
 * startOpsServer — a small node:http server for the operator routes, used by `wavesync worker` (which has no Bolt
 * receiver) and by the bot in Socket Mode. Unknown paths answer 404.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { matchOpsRoute, type OpsRoute } from './ops-routes.js';

export interface OpsServer {
  readonly server: Server;
  /** The port it listens on (useful with port 0). */
  readonly port: number;
  close(): Promise<void>;
}

/** Listen on `host:port` (port 0 = ephemeral) and serve `routes`. */
export async function startOpsServer(
  routes: readonly OpsRoute[],
  port: number,
  host = '0.0.0.0',
): Promise<OpsServer> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const route = matchOpsRoute(routes, req.method ?? 'GET', path);
    if (route) return route.handler(req, res);
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
