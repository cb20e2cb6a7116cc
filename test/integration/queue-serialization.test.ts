import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { SYNC_QUEUE_NAME } from '../../src/queue/store/redis-keys.js';
import { recordedOperation } from '../../src/queue/sync-request.js';
import { useQueueFixture } from './support/queue-fixture.js';
import { jobsFinished, syncRequest } from './support/queue-test-env.js';
import { readReported, recordingReporterFactory } from './support/recording-reporter.js';
import { readHooks, readRuns } from './support/recording-runner.js';
import { overlaps, startOrder } from './support/run-checks.js';

describe('sync queue: one running sync per application', () => {
  const t = useQueueFixture({ attempts: 3, backoffMs: 100 });
  const startWorker = (stepMs: number, steps = 2, concurrency = 4) =>
    t.startWorker({ steps, stepMs }, { concurrency, recheckMs: 2000 });
  const finished = (jobIds: string[]) => jobsFinished(t.queue, jobIds, 20_000);

  it('runs requests for one application strictly one after another, in enqueue order, with positions', async () => {
    const first = await t.queue.enqueueSync(syncRequest('web'));
    const second = await t.queue.enqueueSync(
      syncRequest('web', { initiator: { userId: 'U2', userName: 'bob' } }),
    );
    const third = await t.queue.enqueueSync(syncRequest('web'));
    expect([first.position, second.position, third.position]).toEqual([0, 1, 2]);
    expect(third.ahead.map((a) => a.jobId)).toEqual([first.jobId, second.jobId]);
    expect(third.ahead[1]?.initiator.userName).toBe('bob');
    const line = await t.queue.applicationStatus('web');
    expect(line.map((s) => [s.jobId, s.position, s.state])).toEqual([
      [first.jobId, 0, 'waiting'],
      [second.jobId, 1, 'waiting'],
      [third.jobId, 2, 'waiting'],
    ]);

    startWorker(150);
    const states = await finished([first.jobId, second.jobId, third.jobId]);

    expect(states.map((s) => s?.state)).toEqual(['completed', 'completed', 'completed']);
    const runs = await readRuns(t.redis, t.prefix);
    expect(overlaps(runs)).toEqual([]);
    expect(startOrder(runs, 'web')).toEqual([first.jobId, second.jobId, third.jobId]);
    expect(await t.queue.applicationStatus('web')).toEqual([]);
    const history = await t.queue.history('web');
    // History ids count the application's finished operations, in order (what /sync rollback <app> ID takes).
    expect(history.map((h) => [h.id, h.jobId, h.phase, h.revision])).toEqual([
      [3, third.jobId, 'Succeeded', 'abc123'],
      [2, second.jobId, 'Succeeded', 'abc123'],
      [1, first.jobId, 'Succeeded', 'abc123'],
    ]);
    expect(history[0]?.durationMs).toBeGreaterThanOrEqual(250);
    expect(await readReported(t.redis, t.prefix, first.jobId)).toEqual([
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
    const a = await t.queue.enqueueSync(syncRequest('app-a'));
    const b = await t.queue.enqueueSync(syncRequest('app-b'));
    expect([a.position, b.position]).toEqual([0, 0]);
    await finished([a.jobId, b.jobId]);

    const runs = await readRuns(t.redis, t.prefix);
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
    const [one, two] = await Promise.all([t.queue.enqueueSync(request), t.queue.enqueueSync(request)]);
    expect(one.jobId).toBe(two.jobId);
    expect([one.duplicate, two.duplicate].sort()).toEqual([false, true]);
    const three = await t.queue.enqueueSync({ ...request });
    expect(three).toMatchObject({ jobId: one.jobId, duplicate: true });

    startWorker(50, 1);
    await finished([one.jobId]);
    const again = await t.queue.enqueueSync(request);
    expect(again).toMatchObject({ jobId: one.jobId, duplicate: true });
    expect((await readRuns(t.redis, t.prefix)).filter((r) => r.kind === 'start')).toHaveLength(1);
  });

  it('never retries a sync that failed on its merits, and records it in history', async () => {
    startWorker(50, 2);
    const failing = await t.queue.enqueueSync(syncRequest('web', { syncOptions: ['test.fail'] }));
    const next = await t.queue.enqueueSync(syncRequest('web'));
    const [failed, completed] = await finished([failing.jobId, next.jobId]);

    expect(failed).toMatchObject({ state: 'failed', operationState: { phase: 'Failed' } });
    expect(completed?.state).toBe('completed');
    const runs = await readRuns(t.redis, t.prefix);
    expect(runs.filter((r) => r.jobId === failing.jobId && r.kind === 'start')).toHaveLength(1);
    expect(await readHooks(t.redis, t.prefix, failing.jobId)).toEqual(['hook-1']);
    const [, failedEntry] = await t.queue.history('web');
    expect(failedEntry).toMatchObject({
      jobId: failing.jobId,
      phase: 'Failed',
      initiator: { userName: 'alice' },
    });
    expect(failedEntry?.message).toContain('completed unsuccessfully');
  });

  it("retries a transient infrastructure error with backoff and keeps the application's line", async () => {
    startWorker(50, 1);
    const flaky = await t.queue.enqueueSync(syncRequest('web', { syncOptions: ['test.transient-once'] }));
    const next = await t.queue.enqueueSync(syncRequest('web'));
    const states = await finished([flaky.jobId, next.jobId]);

    expect(states.map((s) => s?.state)).toEqual(['completed', 'completed']);
    const runs = await readRuns(t.redis, t.prefix);
    expect(overlaps(runs)).toEqual([]);
    expect(startOrder(runs, 'web')).toEqual([flaky.jobId, next.jobId]);
    expect(runs.filter((r) => r.jobId === flaky.jobId && r.kind === 'start')).toHaveLength(2);
  });

  it('tells the reporter of a run after a transient error which attempt it is and why (not a resumption by another worker)', async () => {
    const deliveries: { jobId: string; retry?: unknown }[] = [];
    const recording = recordingReporterFactory(t.redis, t.prefix);
    t.startWorker(
      { steps: 1, stepMs: 50 },
      {
        recheckMs: 2000,
        reporterFactory: (job) => {
          deliveries.push({ jobId: job.jobId, ...(job.retry ? { retry: job.retry } : {}) });
          return recording(job);
        },
      },
    );
    const flaky = await t.queue.enqueueSync(syncRequest('web', { syncOptions: ['test.transient-once'] }));
    await finished([flaky.jobId]);

    expect(deliveries.filter((d) => d.jobId === flaky.jobId)).toEqual([
      { jobId: flaky.jobId },
      {
        jobId: flaky.jobId,
        retry: { attempt: 2, attempts: 3, reason: expect.stringMatching(/\S/) },
      },
    ]);
  });

  it('moves the line on when a queued job was removed behind its back, and records it as failed', async () => {
    const removed = await t.queue.enqueueSync(syncRequest('web'));
    const next = await t.queue.enqueueSync(syncRequest('web'));
    const bull = new Queue(SYNC_QUEUE_NAME, { connection: t.redis, prefix: t.prefix });
    await bull.remove(removed.jobId);
    await bull.close();

    startWorker(20, 1);
    const [removedState, nextState] = await finished([removed.jobId, next.jobId]);
    expect(removedState?.state).toBe('failed');
    expect(nextState?.state).toBe('completed');
    const [, entry] = await t.queue.history('web');
    expect(entry).toMatchObject({ jobId: removed.jobId, phase: 'Error' });
    expect(entry?.message).toContain('its BullMQ job is unknown (worker lost)');
  });

  it('fails a job whose reporter cannot be created, without retrying it, and runs the next one', async () => {
    t.startWorker(
      { steps: 1, stepMs: 10 },
      {
        reporterFactory: (job) => {
          if (recordedOperation(job.request).syncOptions.includes('test.no-reporter'))
            throw new Error('no Slack thread');
          return recordingReporterFactory(t.redis, t.prefix)(job);
        },
      },
    );
    const broken = await t.queue.enqueueSync(syncRequest('web', { syncOptions: ['test.no-reporter'] }));
    const next = await t.queue.enqueueSync(syncRequest('web'));
    const [brokenState, nextState] = await finished([broken.jobId, next.jobId]);

    expect(brokenState?.state).toBe('failed');
    expect(nextState?.state).toBe('completed');
    expect((await readRuns(t.redis, t.prefix)).filter((r) => r.jobId === broken.jobId)).toEqual([]);
    expect((await t.queue.history('web'))[1]).toMatchObject({
      jobId: broken.jobId,
      phase: 'Error',
      message: 'no Slack thread',
    });
  });
});
