import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { RetryStrategy } from '../../src/domain/index.js';
import { syncRetryLifecycle } from '../../src/queue/index.js';
import { SYNC_QUEUE_NAME } from '../../src/queue/store/redis-keys.js';
import { requestRetrySync } from '../../src/requests/for-main.js';
import { useQueueFixture } from './support/queue-fixture.js';
import { jobsFinished, REDIS_URL, syncRequest, waitFor } from './support/queue-test-env.js';
import { readRuns } from './support/recording-runner.js';

describe('sync queue: an Application’s own revisionHistoryLimit', () => {
  const t = useQueueFixture();

  it('keeps spec.revisionHistoryLimit entries for that Application (at least 1), the default for the others', async () => {
    const limits: Record<string, number> = { web: 2, none: 0 };
    t.startWorker({ steps: 1, stepMs: 1 }, { historyLimit: 50, historyLimitOf: (app) => limits[app] });
    for (let i = 0; i < 3; i++) {
      const jobs = await Promise.all(
        ['web', 'none', 'api'].map((app) => t.queue.enqueueSync(syncRequest(app))),
      );
      await jobsFinished(
        t.queue,
        jobs.map((j) => j.jobId),
        20_000,
      );
    }

    expect((await t.queue.history('web', 10)).map((h) => h.id)).toEqual([3, 2]);
    expect((await t.queue.history('none', 10)).map((h) => h.id)).toEqual([3]);
    expect((await t.queue.history('api', 10)).map((h) => h.id)).toEqual([3, 2, 1]);
  });
});

describe('sync queue: spec.syncPolicy.retry', () => {
  const t = useQueueFixture();
  const retried = (strategy: RetryStrategy, notes: string[], reached?: () => void) =>
    syncRetryLifecycle({
      requestRetry: (ask) => requestRetrySync({ queue: t.queue }, ask),
      retryStrategyOf: (app) => (app === 'web' ? strategy : undefined),
      announce: async (target, text) => {
        notes.push(`${target.threadTs} ${text}`);
        reached?.();
      },
    });

  it('syncs a failed operation again after its backoff, limit times, in the same thread, and says so', async () => {
    const notes: string[] = [];
    const strategy = { limit: 2, backoff: { duration: '150ms', factor: 2 } };
    t.startWorker({ steps: 1, stepMs: 1 }, { lifecycle: retried(strategy, notes) });
    const request = syncRequest('web', { syncOptions: ['test.fail'] });
    await t.queue.enqueueSync(request);

    const history = await waitFor(async () => {
      const h = await t.queue.history('web', 10);
      return h.length === 3 && h;
    });
    expect(history.map((h) => h.phase)).toEqual(['Failed', 'Failed', 'Failed']);
    const failed = 'one or more synchronization tasks completed unsuccessfully (hook-1)';
    expect(notes).toEqual([
      `${request.target?.threadTs} 🔁 syncPolicy.retry: attempt 2 of 3 in 150 ms: ${failed}`,
      `${request.target?.threadTs} 🔁 syncPolicy.retry: attempt 3 of 3 in 300 ms: ${failed}`,
    ]);
    const runs = await readRuns(t.redis, t.prefix);
    const starts = runs.filter((r) => r.kind === 'start').map((r) => r.t);
    const finishes = runs.filter((r) => r.kind === 'finish').map((r) => r.t);
    expect(starts).toHaveLength(3);
    // Each retry starts no earlier than its backoff after the failed attempt ended (150 ms, then 300 ms).
    expect(starts[1]! - finishes[0]!).toBeGreaterThanOrEqual(140);
    expect(starts[2]! - finishes[1]!).toBeGreaterThanOrEqual(290);
    // Nothing more is queued once the limit is reached.
    expect(await t.queue.applicationStatus('web')).toEqual([]);
  });

  it('does not retry a terminated (cancelled) operation, nor an Application without a retry strategy', async () => {
    const notes: string[] = [];
    t.startWorker({ steps: 3, stepMs: 300 }, { lifecycle: retried({ limit: 3 }, notes) });
    const web = await t.queue.enqueueSync(syncRequest('web'));
    const api = await t.queue.enqueueSync(syncRequest('api', { syncOptions: ['test.fail'] }));
    await waitFor(async () => (await t.queue.jobStatus(web.jobId))?.state === 'active');
    await t.queue.cancel('web', { userId: 'U9', userName: 'pat' });
    await jobsFinished(t.queue, [web.jobId, api.jobId], 20_000);

    expect((await t.queue.history('web', 10)).map((h) => h.phase)).toEqual(['Failed']);
    expect((await t.queue.history('api', 10)).map((h) => h.phase)).toEqual(['Failed']);
    expect(await t.queue.applicationStatus('web')).toEqual([]);
    expect(notes).toEqual([]);
  });

  it('pins the failed attempt’s commit unless retry.refresh, and derives the retry’s job id (a second end queues nothing)', async () => {
    const sha = 'a'.repeat(40);
    const request = syncRequest('web');
    const state = {
      operation: request.operation,
      phase: 'Error' as const,
      message: 'git fetch failed',
      syncResult: { revision: sha, resources: [] },
      startedAt: new Date().toISOString(),
      finishedAt: new Date().toISOString(),
    };
    const bull = new Queue(SYNC_QUEUE_NAME, { connection: { url: REDIS_URL }, prefix: t.prefix });
    try {
      for (const [refresh, expected] of [
        [false, sha],
        [true, undefined],
      ] as const) {
        const notes: string[] = [];
        const lifecycle = retried({ limit: 1, refresh, backoff: { duration: '60' } }, notes);
        const jobId = `job-${String(refresh)}`;
        await lifecycle.ended({ jobId, request, state, cancelled: false });
        await lifecycle.ended({ jobId, request, state, cancelled: false });

        expect(notes).toHaveLength(1);
        const [retry] = await t.queue.applicationStatus('web');
        const job = await bull.getJob(retry?.jobId ?? '');
        expect(await job?.isDelayed()).toBe(true);
        expect(job?.data.request.operation.revision).toBe(expected);
        expect(job?.data.request.retry).toEqual({
          attempt: 2,
          attempts: 2,
          delayMs: 60_000,
          reason: 'git fetch failed',
        });
        await t.queue.cancel('web', { userId: 'U9', userName: 'pat' });
      }
    } finally {
      await bull.close();
    }
  });
  it('waits for the failed attempt’s own thread to be delivered before it says the retry (never above its summary)', async () => {
    const events: string[] = [];
    let release: () => void = () => undefined;
    const delivered = new Promise<void>((resolve) => {
      release = resolve;
    });
    const lifecycle = syncRetryLifecycle({
      requestRetry: (ask) => requestRetrySync({ queue: t.queue }, ask),
      retryStrategyOf: () => ({ limit: 1, backoff: { duration: '1m' } }),
      threadDelivered: async (jobId) => {
        events.push(`waiting for ${jobId}`);
        await delivered;
        events.push('delivered');
      },
      announce: async (_target, text) => {
        events.push(text.split(':')[0]!);
      },
    });
    t.startWorker({ steps: 1, stepMs: 1 }, { lifecycle });
    const { jobId } = await t.queue.enqueueSync(syncRequest('web', { syncOptions: ['test.fail'] }));

    await waitFor(async () => events.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(events).toEqual([`waiting for ${jobId}`]);
    release();
    await waitFor(async () => events.length === 3);
    expect(events).toEqual([`waiting for ${jobId}`, 'delivered', '🔁 syncPolicy.retry']);
  });
});
