import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotError } from '../../src/domain/index.js';
import { createSyncQueue } from '../../src/queue/sync-queue.js';
import { createSyncWorker } from '../../src/queue/sync-worker.js';
import { redisServerMissing } from '../support/redis-topologies.js';
import { type OwnRedis, startOwnRedis } from './support/own-redis.js';
import { deleteKeys, syncRequest, testRedis, uniquePrefix, waitFor } from './support/queue-test-env.js';
import { readReported, recordingReporterFactory } from './support/recording-reporter.js';
import { createRecordingRunner, readHooks, readRuns } from './support/recording-runner.js';

// The queue lives on a private redis-server that the test stops and restarts; the recording runner writes to
// the shared Redis, which stays up, so what the runner did is known even while the queue's Redis is down.
describe.skipIf(redisServerMissing())('sync queue when Redis goes away', () => {
  let own: OwnRedis;
  let record: Redis;
  const prefix = uniquePrefix();

  beforeAll(async () => {
    own = await startOwnRedis();
    record = testRedis();
  });

  afterAll(async () => {
    try {
      await own?.dispose();
    } finally {
      if (record) {
        await deleteKeys(record, prefix);
        record.disconnect();
      }
    }
  });

  it('refuses to enqueue at once with not_queued, and workers continue when Redis is back', async () => {
    const queue = createSyncQueue({ connection: { url: own.url }, prefix, timeoutMs: 1000 });
    const worker = createSyncWorker({
      connection: { url: own.url },
      prefix,
      runner: createRecordingRunner({ redis: record, base: prefix, steps: 3, stepMs: 400 }),
      reporterFactory: recordingReporterFactory(record, prefix),
    });
    try {
      const first = await queue.enqueueSync(syncRequest('web'));
      await waitFor(
        async () => (await readReported(record, prefix, first.jobId)).includes('HookStarted:1'),
        10_000,
        'first job running',
      );
      await own.stop();
      const stoppedAt = Date.now();

      const started = Date.now();
      const refused = await queue.enqueueSync(syncRequest('web')).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(BotError);
      expect(refused).toMatchObject({ code: 'not_queued' });
      expect((refused as BotError).message).toMatch(/^Sync of web not queued: Redis is unreachable/);
      expect(Date.now() - started).toBeLessThan(2500);

      // Keep Redis down longer than a step (400 ms), so the running job's next persist waits for the restart.
      await waitFor(async () => Date.now() - stoppedAt > 800, 2000, 'an outage longer than one step');
      await own.start();
      const restartedAt = Date.now();
      const second = await waitFor(
        () => queue.enqueueSync(syncRequest('web')).catch(() => undefined),
        10_000,
        'enqueue after restart',
      );
      const states = await waitFor(
        async () => {
          const s = await Promise.all([queue.jobStatus(first.jobId), queue.jobStatus(second.jobId)]);
          return s.every((x) => x?.state === 'completed') && s;
        },
        30_000,
        'both jobs to complete',
      );

      expect(states.map((s) => s?.operationState?.phase)).toEqual(['Succeeded', 'Succeeded']);
      expect(await readHooks(record, prefix, first.jobId)).toEqual(['hook-1', 'hook-2', 'hook-3']);
      const firstFinish = (await readRuns(record, prefix)).find(
        (r) => r.jobId === first.jobId && r.kind === 'finish',
      );
      expect(firstFinish?.t).toBeGreaterThanOrEqual(restartedAt);
      expect(await readHooks(record, prefix, second.jobId)).toEqual(['hook-1', 'hook-2', 'hook-3']);
    } finally {
      await worker.close({ graceMs: 2000 });
      await queue.close();
    }
  });

  it('fails fast with not_queued when Redis was never reachable, and enqueues nothing later', async () => {
    await own.stop();
    const queue = createSyncQueue({
      connection: { url: own.url },
      prefix: `${prefix}-never`,
      timeoutMs: 500,
    });
    try {
      const started = Date.now();
      const refused = await queue.enqueueSync(syncRequest('web')).catch((err: unknown) => err);
      expect(refused).toMatchObject({ code: 'not_queued' });
      expect(Date.now() - started).toBeLessThan(1500);

      await own.start();
      const accepted = await waitFor(
        () => queue.enqueueSync(syncRequest('web')).catch(() => undefined),
        10_000,
        'enqueue',
      );
      expect(accepted.position).toBe(0);
      expect((await queue.applicationStatus('web')).map((s) => s.jobId)).toEqual([accepted.jobId]);
    } finally {
      await queue.close();
    }
  });
});
