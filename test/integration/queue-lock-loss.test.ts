import { beforeEach, describe, expect, it } from 'vitest';
import { SYNC_QUEUE_NAME } from '../../src/queue/store/redis-keys.js';
import { useQueueFixture } from './support/queue-fixture.js';
import { jobsFinished, syncRequest, waitFor } from './support/queue-test-env.js';
import { readReported } from './support/recording-reporter.js';
import { readHooks, readRuns } from './support/recording-runner.js';

// A worker whose BullMQ lock expired (a long Redis outage, a paused process) must stop at its next step
// WITHOUT terminating the operation (the engine reads an aborted signal as "terminate"), and the job must be
// resumed from the persisted state.
describe('sync worker that loses its job lock', () => {
  const t = useQueueFixture();

  beforeEach(() => {
    t.startWorker({ steps: 3, stepMs: 600 }, { lockDurationMs: 1000, stalledIntervalMs: 300 });
  });

  it('stops at the next step without terminating, and the job resumes to Succeeded with each hook once', async () => {
    const { jobId } = await t.queue.enqueueSync(syncRequest('web'));
    await waitFor(
      async () => (await readReported(t.redis, t.prefix, jobId)).includes('HookStarted:1'),
      10_000,
      'hook 1',
    );
    await t.redis.del(`${t.prefix}:${SYNC_QUEUE_NAME}:${jobId}:lock`);

    const [state] = await jobsFinished(t.queue, [jobId], 20_000);
    expect(state).toMatchObject({ state: 'completed', operationState: { phase: 'Succeeded' } });
    expect(await readHooks(t.redis, t.prefix, jobId)).toEqual(['hook-1', 'hook-2', 'hook-3']);
    const runs = await readRuns(t.redis, t.prefix);
    expect(runs.map((r) => [r.kind, r.resumed])).toEqual([
      ['start', false],
      ['start', true],
      ['finish', true],
    ]);
    const events = await readReported(t.redis, t.prefix, jobId);
    expect(events.filter((e) => e === 'OperationCompleted')).toHaveLength(1);
    expect(events.at(-1)).toBe('OperationCompleted');
    // One entry and one history id for the job, however many workers ran it.
    expect(await t.queue.history('web')).toMatchObject([{ id: 1, jobId, phase: 'Succeeded' }]);
  });

  it('when the worker dies after persisting the final state but before reporting it, then the resumed job reports the outcome', async () => {
    const { jobId } = await t.queue.enqueueSync(
      syncRequest('web', { syncOptions: ['test.die-after-final'] }),
    );
    await waitFor(
      async () => (await readRuns(t.redis, t.prefix)).some((r) => r.kind === 'finish'),
      20_000,
      'final state persisted',
    );
    await t.redis.del(`${t.prefix}:${SYNC_QUEUE_NAME}:${jobId}:lock`);

    const [state] = await jobsFinished(t.queue, [jobId], 20_000);
    expect(state).toMatchObject({ state: 'completed', operationState: { phase: 'Succeeded' } });
    const events = await readReported(t.redis, t.prefix, jobId);
    expect(events.filter((e) => e === 'OperationCompleted')).toHaveLength(1);
    expect(events.at(-1)).toBe('OperationCompleted');
  });
});
