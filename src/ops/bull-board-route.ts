/**
 * Bull Board (`@bull-board/api` + `@bull-board/express`) at `/admin/queues`, behind HTTP basic auth. Disabled
 * unless `WAVESYNC_ADMIN_PASSWORD` is set (see config.ts): it can retry and remove jobs, so it is never open.
 * The express app is used as a plain node:http handler, so it mounts on Bolt's receiver or the worker's server.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import express from 'express';
import type { OpsRoute } from './ops-routes.js';

const ADMIN_BASE_PATH = '/admin/queues';

export interface BasicAuth {
  user: string;
  password: string;
}

/** The Bull Board route for `queues`, requiring `auth`. */
export function bullBoardRoute(queues: readonly Queue[], auth: BasicAuth): OpsRoute {
  const adapter = new ExpressAdapter();
  adapter.setBasePath(ADMIN_BASE_PATH);
  createBullBoard({
    queues: queues.map((q) => new BullMQAdapter(q, { readOnlyMode: false })),
    serverAdapter: adapter,
  });
  const app = express();
  app.disable('x-powered-by');
  app.use(ADMIN_BASE_PATH, adapter.getRouter());
  return {
    path: ADMIN_BASE_PATH,
    method: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'],
    prefix: true,
    handler(req: IncomingMessage, res: ServerResponse) {
      if (!isAuthorized(req.headers.authorization, auth)) {
        res.writeHead(401, {
          'www-authenticate': 'Basic realm="wavesync admin"',
          'content-type': 'text/plain',
        });
        res.end('authentication required\n');
        return;
      }
      app(req as express.Request, res as express.Response);
    },
  };
}

/** True when `header` is `Basic base64(user:password)` with the right credentials (constant-time compare). */
export function isAuthorized(header: string | undefined, auth: BasicAuth): boolean {
  if (!header?.startsWith('Basic ')) return false;
  const given = Buffer.from(header.slice(6), 'base64');
  const wanted = Buffer.from(`${auth.user}:${auth.password}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
