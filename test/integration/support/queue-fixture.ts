/**
 * Per-test queue fixture for in-process queue tests: a unique prefix, a Redis client for records, a producer,
 * and workers with the recording runner; everything closed and every key deleted after each test.
 * Call inside `describe`; read the fields inside tests (they are replaced before each test).
 */
import type { Redis } from 'ioredis';
import { afterEach, beforeEach } from 'vitest';
import { createSyncQueue, type SyncQueue, type SyncQueueOptions } from '../../../src/queue/sync-queue.js';
import { createSyncWorker, type SyncWorker, type SyncWorkerOptions } from '../../../src/queue/sync-worker.js';
import { deleteKeys, REDIS_URL, testRedis, uniquePrefix } from './queue-test-env.js';
import { recordingReporterFactory } from './recording-reporter.js';
import { createRecordingRunner } from './recording-runner.js';

export interface QueueFixture {
  prefix: string;
  redis: Redis;
  queue: SyncQueue;
  /** Start a worker running the recording runner (`steps` × `stepMs`); other options override defaults. */
  startWorker(run: { steps: number; stepMs: number }, options?: Partial<SyncWorkerOptions>): SyncWorker;
}

export function useQueueFixture(queueOptions: Partial<SyncQueueOptions> = {}): QueueFixture {
  const workers: SyncWorker[] = [];
  const fixture = {
    startWorker(run, options = {}) {
      const { redis, prefix } = fixture;
      const worker = createSyncWorker({
        connection: { url: REDIS_URL },
        prefix,
        runner: createRecordingRunner({ redis, base: prefix, ...run }),
        reporterFactory: recordingReporterFactory(redis, prefix),
        ...options,
      });
      workers.push(worker);
      return worker;
    },
  } as QueueFixture;

  beforeEach(() => {
    fixture.prefix = uniquePrefix();
    fixture.redis = testRedis();
    fixture.queue = createSyncQueue({
      connection: { url: REDIS_URL },
      prefix: fixture.prefix,
      ...queueOptions,
    });
  });

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.close({ graceMs: 2000 })));
    await fixture.queue.close();
    await deleteKeys(fixture.redis, fixture.prefix);
    fixture.redis.disconnect();
  });
  return fixture;
}
