import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SYNC_QUEUE_NAME } from '../../src/queue/redis-keys.js';
import { createSyncQueue, type SyncQueue } from '../../src/queue/sync-queue.js';
import { createSyncWorker, type SyncWorker } from '../../src/queue/sync-worker.js';
import {
  deleteKeys,
  jobsFinished,
  REDIS_URL,
  syncRequest,
  testRedis,
  uniquePrefix,
} from './support/queue-test-env.js';
import { readReported, recordingReporterFactory } from './support/recording-reporter.js';
import { createRecordingRunner, readHooks, readRuns } from './support/recording-runner.js';
import { overlaps, startOrder } from './support/run-checks.js';

describe('sync queue: one running sync per application', () => {
  let prefix: string;
  let redis: Redis;
  let queue: SyncQueue;
  const workers: SyncWorker[] = [];

  const startWorker = (stepMs: number, steps = 2, concurrency = 4) => {
    const worker = createSyncWorker({
      connection: { url: REDIS_URL },
      prefix,
      runner: createRecordingRunner({ redis, base: prefix, steps, stepMs }),
      reporterFactory: recordingReporterFactory(redis, prefix),
      concurrency,
      recheckMs: 2000,
    });
    workers.push(worker);
    return worker;
  };
  const finished = (jobIds: string[]) => jobsFinished(queue, jobIds, 20_000);

  beforeEach(() => {
    prefix = uniquePrefix();
    redis = testRedis();
    queue = createSyncQueue({ connection: { url: REDIS_URL }, prefix, attempts: 3, backoffMs: 100 });
  });

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.close({ graceMs: 2000 })));
    await queue.close();
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  it('runs requests for one application strictly one after another, in enqueue order, with positions', async () => {
    const first = await queue.enqueueSync(syncRequest('web'));
    const second = await queue.enqueueSync(
      syncRequest('web', { initiator: { userId: 'U2', userName: 'bob' } }),
    );
    const third = await queue.enqueueSync(syncRequest('web'));
    expect([first.position, second.position, third.position]).toEqual([0, 1, 2]);
    expect(third.ahead.map((a) => a.jobId)).toEqual([first.jobId, second.jobId]);
    expect(third.ahead[1]?.initiator.userName).toBe('bob');
    const line = await queue.applicationStatus('web');
    expect(line.map((s) => [s.jobId, s.position, s.state])).toEqual([
      [first.jobId, 0, 'waiting'],
      [second.jobId, 1, 'waiting'],
      [third.jobId, 2, 'waiting'],
    ]);

    startWorker(150);
    const states = await finished([first.jobId, second.jobId, third.jobId]);

    expect(states.map((s) => s?.state)).toEqual(['completed', 'completed', 'completed']);
    const runs = await readRuns(redis, prefix);
    expect(overlaps(runs)).toEqual([]);
    expect(startOrder(runs, 'web')).toEqual([first.jobId, second.jobId, third.jobId]);
    expect(await queue.applicationStatus('web')).toEqual([]);
    const history = await queue.history('web');
    expect(history.map((h) => [h.jobId, h.phase, h.revision])).toEqual([
      [third.jobId, 'Succeeded', 'abc123'],
      [second.jobId, 'Succeeded', 'abc123'],
      [first.jobId, 'Succeeded', 'abc123'],
    ]);
    expect(history[0]?.durationMs).toBeGreaterThanOrEqual(250);
    expect(await readReported(redis, prefix, first.jobId)).toEqual([
      'OperationStarted',
      'WaveStarted:1',
      'HookStarted:1',
      'HookFinished:1',
      'WaveCompleted:1',
      'WaveStarted:2',
      'HookStarted:2',
      'HookFinished:2',
      'WaveCompleted:2',
      'OperationCompleted',
    ]);
  });

  it('runs different applications at the same time', async () => {
    startWorker(400, 1);
    const a = await queue.enqueueSync(syncRequest('app-a'));
    const b = await queue.enqueueSync(syncRequest('app-b'));
    expect([a.position, b.position]).toEqual([0, 0]);
    await finished([a.jobId, b.jobId]);

    const runs = await readRuns(redis, prefix);
    const [startA, startB] = ['app-a', 'app-b'].map(
      (app) => runs.find((r) => r.application === app && r.kind === 'start')!,
    );
    const [endA, endB] = ['app-a', 'app-b'].map(
      (app) => runs.find((r) => r.application === app && r.kind === 'finish')!,
    );
    expect(startB!.seq).toBeLessThan(endA!.seq);
    expect(startA!.seq).toBeLessThan(endB!.seq);
  });

  it('creates one job for a request delivered twice, and tells the caller', async () => {
    const request = syncRequest('web');
    const [one, two] = await Promise.all([queue.enqueueSync(request), queue.enqueueSync(request)]);
    expect(one.jobId).toBe(two.jobId);
    expect([one.duplicate, two.duplicate].sort()).toEqual([false, true]);
    const three = await queue.enqueueSync({ ...request });
    expect(three).toMatchObject({ jobId: one.jobId, duplicate: true });

    startWorker(50, 1);
    await finished([one.jobId]);
    const again = await queue.enqueueSync(request);
    expect(again).toMatchObject({ jobId: one.jobId, duplicate: true });
    expect((await readRuns(redis, prefix)).filter((r) => r.kind === 'start')).toHaveLength(1);
  });

  it('never retries a sync that failed on its merits, and records it in history', async () => {
    startWorker(50, 2);
    const failing = await queue.enqueueSync(syncRequest('web', { syncOptions: ['test.fail'] }));
    const next = await queue.enqueueSync(syncRequest('web'));
    const [failed, completed] = await finished([failing.jobId, next.jobId]);

    expect(failed).toMatchObject({ state: 'failed', operationState: { phase: 'Failed' } });
    expect(completed?.state).toBe('completed');
    const runs = await readRuns(redis, prefix);
    expect(runs.filter((r) => r.jobId === failing.jobId && r.kind === 'start')).toHaveLength(1);
    expect(await readHooks(redis, prefix, failing.jobId)).toEqual(['hook-1']);
    const [, failedEntry] = await queue.history('web');
    expect(failedEntry).toMatchObject({
      jobId: failing.jobId,
      phase: 'Failed',
      initiator: { userName: 'alice' },
    });
    expect(failedEntry?.message).toContain('completed unsuccessfully');
  });

  it("retries a transient infrastructure error with backoff and keeps the application's line", async () => {
    startWorker(50, 1);
    const flaky = await queue.enqueueSync(syncRequest('web', { syncOptions: ['test.transient-once'] }));
    const next = await queue.enqueueSync(syncRequest('web'));
    const states = await finished([flaky.jobId, next.jobId]);

    expect(states.map((s) => s?.state)).toEqual(['completed', 'completed']);
    const runs = await readRuns(redis, prefix);
    expect(overlaps(runs)).toEqual([]);
    expect(startOrder(runs, 'web')).toEqual([flaky.jobId, next.jobId]);
    expect(runs.filter((r) => r.jobId === flaky.jobId && r.kind === 'start')).toHaveLength(2);
  });

  it('moves the line on when a queued job was removed behind its back, and records it as failed', async () => {
    const removed = await queue.enqueueSync(syncRequest('web'));
    const next = await queue.enqueueSync(syncRequest('web'));
    const bull = new Queue(SYNC_QUEUE_NAME, { connection: redis, prefix });
    await bull.remove(removed.jobId);
    await bull.close();

    startWorker(20, 1);
    const [removedState, nextState] = await finished([removed.jobId, next.jobId]);
    expect(removedState?.state).toBe('failed');
    expect(nextState?.state).toBe('completed');
    const [, entry] = await queue.history('web');
    expect(entry).toMatchObject({ jobId: removed.jobId, phase: 'Error' });
    expect(entry?.message).toContain('its BullMQ job is unknown (worker lost)');
  });

  it('fails a job whose reporter cannot be created, without retrying it, and runs the next one', async () => {
    const worker = createSyncWorker({
      connection: { url: REDIS_URL },
      prefix,
      runner: createRecordingRunner({ redis, base: prefix, steps: 1, stepMs: 10 }),
      reporterFactory: (job) => {
        if (job.request.operation.syncOptions.includes('test.no-reporter'))
          throw new Error('no Slack thread');
        return recordingReporterFactory(redis, prefix)(job);
      },
    });
    workers.push(worker);
    const broken = await queue.enqueueSync(syncRequest('web', { syncOptions: ['test.no-reporter'] }));
    const next = await queue.enqueueSync(syncRequest('web'));
    const [brokenState, nextState] = await finished([broken.jobId, next.jobId]);

    expect(brokenState?.state).toBe('failed');
    expect(nextState?.state).toBe('completed');
    expect((await readRuns(redis, prefix)).filter((r) => r.jobId === broken.jobId)).toEqual([]);
    expect((await queue.history('web'))[1]).toMatchObject({
      jobId: broken.jobId,
      phase: 'Error',
      message: 'no Slack thread',
    });
  });
});
