import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncEvent } from '../../src/domain/index.js';
import { followJob } from '../../src/queue/follow-job.js';
import { createSyncQueue, type SyncQueue } from '../../src/queue/sync-queue.js';
import { createSyncWorker, type SyncWorker } from '../../src/queue/sync-worker.js';
import { deleteKeys, REDIS_URL, syncRequest, testRedis, uniquePrefix } from './support/queue-test-env.js';
import { eventLine, readReported, recordingReporterFactory } from './support/recording-reporter.js';
import { createRecordingRunner } from './support/recording-runner.js';

describe('followJob: a terminal follows a job that a worker elsewhere runs', () => {
  let prefix: string;
  let redis: Redis;
  let queue: SyncQueue;
  let worker: SyncWorker;

  beforeEach(() => {
    prefix = uniquePrefix();
    redis = testRedis();
    queue = createSyncQueue({ connection: { url: REDIS_URL }, prefix });
    worker = createSyncWorker({
      connection: { url: REDIS_URL },
      prefix,
      runner: createRecordingRunner({ redis, base: prefix, steps: 2, stepMs: 100 }),
      reporterFactory: recordingReporterFactory(redis, prefix),
    });
  });

  afterEach(async () => {
    await worker.close({ graceMs: 2000 });
    await queue.close();
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  it('delivers the same events as the reporter, in order, and resolves with the outcome', async () => {
    const { jobId } = await queue.enqueueSync(syncRequest('web'));
    const seen: SyncEvent[] = [];
    const final = await followJob(queue, jobId, (event) => {
      seen.push(event);
    });

    expect(final).toMatchObject({ jobId, state: 'completed', operationState: { phase: 'Succeeded' } });
    expect(seen.map(eventLine)).toEqual(await readReported(redis, prefix, jobId));
    expect(seen.at(-1)?.type).toBe('OperationCompleted');
  });

  it('ends when a job it follows is cancelled before it started', async () => {
    await worker.close({ graceMs: 2000 });
    const { jobId } = await queue.enqueueSync(syncRequest('web'));
    const following = followJob(queue, jobId, () => {
      throw new Error('no event expected');
    });
    expect(await queue.cancel('web', { userId: 'U9', userName: 'dana' }, jobId)).toEqual({
      cancelled: 'waiting',
      jobId,
    });

    expect(await following).toMatchObject({ jobId, state: 'cancelled' });
    expect(await followJob(queue, 'no-such-job', () => undefined)).toBeUndefined();
  });
});
