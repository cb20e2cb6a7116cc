import { afterEach, describe, expect, it } from 'vitest';
import type { OperationState } from '../domain/index.js';
import { isAuthorized } from './bull-board-route.js';
import { createMetrics } from './metrics.js';
import { matchOpsRoute, opsRoutes } from './ops-routes.js';
import { type OpsServer, startOpsServer } from './ops-server.js';

const state: OperationState = {
  operation: { prune: false, dryRun: false, syncOptions: [] },
  phase: 'Failed',
  message: 'one or more synchronization tasks completed unsuccessfully',
  syncResult: { revision: 'abc', resources: [] },
  startedAt: '2026-11-29T10:00:00.000Z',
  finishedAt: '2026-11-29T10:00:12.000Z',
};

describe('src/ops/ops-routes', () => {
  let server: OpsServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('when Redis answers, then /healthz is 200 with the version and role', async () => {
    const metrics = createMetrics({ defaults: false });
    server = await startOpsServer(
      opsRoutes({ version: '0.1.0', role: 'worker', pingRedis: async () => {}, metrics }),
      0,
      '127.0.0.1',
    );

    const res = await fetch(`http://127.0.0.1:${server.port}/healthz`);

    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', version: '0.1.0', role: 'worker', redis: 'ok' });
  });

  it('when Redis does not answer, then /healthz is 503 naming the reason', async () => {
    const metrics = createMetrics({ defaults: false });
    const pingRedis = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1'));
    server = await startOpsServer(
      opsRoutes({ version: '0.1.0', role: 'bot', pingRedis, metrics }),
      0,
      '127.0.0.1',
    );

    const res = await fetch(`http://127.0.0.1:${server.port}/healthz`);

    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      status: 'unavailable',
      redis: 'unreachable: connect ECONNREFUSED 127.0.0.1:1',
    });
  });

  it("when serve's worker thread is not up, then /healthz is 503 naming why; once up, 200 saying so", async () => {
    const metrics = createMetrics({ defaults: false });
    let worker = 'restarting: the worker thread ended (exit code 1)';
    server = await startOpsServer(
      opsRoutes({
        version: '0.1.0',
        role: 'serve',
        pingRedis: async () => {},
        metrics,
        worker: () => worker,
      }),
      0,
      '127.0.0.1',
    );

    const down = await fetch(`http://127.0.0.1:${server.port}/healthz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ status: 'unavailable', redis: 'ok', worker });

    worker = 'up';
    const up = await fetch(`http://127.0.0.1:${server.port}/healthz`);
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({
      status: 'ok',
      version: '0.1.0',
      role: 'serve',
      redis: 'ok',
      worker: 'up',
    });
  });

  it("serves a worker thread's metrics summed with its own, and its own alone when the thread does not answer", async () => {
    const metrics = createMetrics({ defaults: false });
    const thread = createMetrics({ defaults: false });
    metrics.slackCall('chat.postMessage');
    metrics.driftChecked('web', 'OutOfSync', 'interval');
    thread.slackCall('chat.postMessage');
    thread.slackCall('chat.update');
    await thread.reporter().report({
      type: 'OperationCompleted',
      at: '',
      phase: 'Succeeded',
      message: '',
      durationMs: 3000,
      state: { ...state, phase: 'Succeeded' },
    });
    let answers = true;
    metrics.include(async () => {
      if (!answers) throw new Error('no answer');
      return thread.registry.getMetricsAsJSON();
    });

    const summed = (await metrics.render()).body;
    answers = false;
    const alone = (await metrics.render()).body;

    expect(summed).toContain('wavesync_slack_api_calls_total{method="chat.postMessage"} 2');
    expect(summed).toContain('wavesync_slack_api_calls_total{method="chat.update"} 1');
    expect(summed).toContain('wavesync_syncs_total{phase="Succeeded"} 1');
    expect(summed).toContain('wavesync_sync_duration_seconds_bucket{le="5",phase="Succeeded"} 1');
    expect(summed).toContain('wavesync_drift_out_of_sync_applications 1');
    expect(alone).toContain('wavesync_slack_api_calls_total{method="chat.postMessage"} 1');
    expect(alone).not.toContain('chat.update');
  });

  it('serves the sync, wave, queue and Slack metrics in Prometheus text', async () => {
    const metrics = createMetrics({ defaults: false });
    metrics.setJobCountsReader(async () => ({ waiting: 2, active: 1, failed: 3 }));
    const reporter = metrics.reporter();
    const wave = { phase: 'PreSync' as const, wave: 1, index: 1, total: 2 };
    await reporter.report({
      type: 'WaveCompleted',
      at: '',
      wave,
      durationMs: 1500,
      health: [],
      failed: false,
      message: '',
    });
    await reporter.report({
      type: 'OperationCompleted',
      at: '',
      phase: 'Failed',
      message: '',
      durationMs: 12_000,
      state,
    });
    metrics.slackCall('chat.postMessage');
    metrics.slackCall('chat.postMessage');
    metrics.slackRateLimited('chat.postMessage');
    metrics.slackDropped('thread reply', 3);
    server = await startOpsServer(
      opsRoutes({ version: '0.1.0', role: 'serve', pingRedis: async () => {}, metrics }),
      0,
      '127.0.0.1',
    );

    const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    const text = await res.text();

    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(text).toContain('wavesync_queue_jobs{state="waiting"} 2');
    expect(text).toContain('wavesync_queue_jobs{state="active"} 1');
    expect(text).toContain('wavesync_queue_jobs{state="delayed"} 0');
    expect(text).toContain('wavesync_syncs_total{phase="Failed"} 1');
    expect(text).toContain('wavesync_sync_duration_seconds_sum{phase="Failed"} 12');
    expect(text).toContain('wavesync_wave_duration_seconds_bucket{le="5",sync_phase="PreSync"} 1');
    expect(text).toContain('wavesync_slack_api_calls_total{method="chat.postMessage"} 2');
    expect(text).toContain('wavesync_slack_rate_limited_total{method="chat.postMessage"} 1');
    expect(text).toContain('wavesync_slack_messages_dropped_total{what="thread reply"} 1');
    expect(text).toContain('wavesync_slack_thread_lines_dropped_total 3');
  });

  it('answers 404 for unknown paths and matches prefix routes below their path only', async () => {
    const metrics = createMetrics({ defaults: false });
    const admin = { path: '/admin/queues', method: ['GET'], prefix: true, handler: () => undefined };
    const routes = opsRoutes({ version: '0.1.0', role: 'bot', pingRedis: async () => {}, metrics, admin });
    server = await startOpsServer(routes, 0, '127.0.0.1');

    const res = await fetch(`http://127.0.0.1:${server.port}/nope`);

    expect(res.status).toBe(404);
    expect(matchOpsRoute(routes, 'GET', '/admin/queues/api/queues')).toBe(admin);
    expect(matchOpsRoute(routes, 'GET', '/admin/queuesX')).toBeUndefined();
    expect(matchOpsRoute(routes, 'POST', '/healthz')).toBeUndefined();
  });
});

describe('src/ops/bull-board-route isAuthorized', () => {
  const auth = { user: 'admin', password: 's3cret' };
  const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`;

  it('accepts only the configured user and password', () => {
    expect(isAuthorized(basic('admin:s3cret'), auth)).toBe(true);
    expect(isAuthorized(basic('admin:wrong'), auth)).toBe(false);
    expect(isAuthorized(basic('admin:s3cret2'), auth)).toBe(false);
    expect(isAuthorized('Bearer s3cret', auth)).toBe(false);
    expect(isAuthorized(undefined, auth)).toBe(false);
  });
});
