import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { bullBoardRoute } from '../../../src/ops/bull-board-route.js';
import { createMetrics } from '../../../src/ops/metrics.js';
import { opsRoutes } from '../../../src/ops/ops-routes.js';
import { type OpsServer, startOpsServer } from '../../../src/ops/ops-server.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('test/integration/ops/bull-board', () => {
  let server: OpsServer | undefined;
  let queue: Queue | undefined;
  afterEach(async () => {
    await server?.close();
    await queue?.obliterate({ force: true }).catch(() => undefined);
    await queue?.close();
  });

  it('when Bull Board is enabled, then /admin/queues needs the basic-auth credentials and lists the sync queue', async () => {
    const prefix = `test-${randomUUID()}`;
    queue = new Queue('sync-operations', { connection: { url: REDIS_URL }, prefix });
    await queue.add('sync', { request: {} });
    const admin = bullBoardRoute([queue], { user: 'admin', password: 's3cret' });
    const metrics = createMetrics({ defaults: false });
    server = await startOpsServer(
      opsRoutes({ version: '0.1.0', role: 'bot', pingRedis: async () => {}, metrics, admin }),
      0,
      '127.0.0.1',
    );
    const base = `http://127.0.0.1:${server.port}/admin/queues`;
    const auth = { authorization: `Basic ${Buffer.from('admin:s3cret').toString('base64')}` };

    const anonymous = await fetch(base);
    const wrong = await fetch(base, {
      headers: { authorization: `Basic ${Buffer.from('admin:nope').toString('base64')}` },
    });
    const page = await fetch(base, { headers: auth });
    const api = await fetch(`${base}/api/queues`, { headers: auth });

    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain('Basic');
    expect(wrong.status).toBe(401);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
    expect(api.status).toBe(200);
    const body = (await api.json()) as { queues: { name: string; counts: Record<string, number> }[] };
    expect(body.queues.map((q) => q.name)).toEqual(['sync-operations']);
    expect(body.queues[0]?.counts.waiting).toBe(1);
  });
});
