import { beforeEach, describe, expect, it } from 'vitest';
import type { SyncEvent } from '../../src/domain/index.js';
import { followJob } from '../../src/queue/follow-job.js';
import type { SyncWorker } from '../../src/queue/sync-worker.js';
import { useQueueFixture } from './support/queue-fixture.js';
import { syncRequest } from './support/queue-test-env.js';
import { eventLine, readReported } from './support/recording-reporter.js';

describe('followJob: a terminal follows a job that a worker elsewhere runs', () => {
  const t = useQueueFixture();
  let worker: SyncWorker;

  beforeEach(() => {
    worker = t.startWorker({ steps: 2, stepMs: 100 });
  });

  it('delivers the same events as the reporter, in order, and resolves with the outcome', async () => {
    const { jobId } = await t.queue.enqueueSync(syncRequest('web'));
    const seen: SyncEvent[] = [];
    const final = await followJob(t.queue, jobId, (event) => {
      seen.push(event);
    });

    expect(final).toMatchObject({ jobId, state: 'completed', operationState: { phase: 'Succeeded' } });
    expect(seen.map(eventLine)).toEqual(await readReported(t.redis, t.prefix, jobId));
    expect(seen.at(-1)?.type).toBe('OperationCompleted');
  });

  it('ends when a job it follows is cancelled before it started', async () => {
    await worker.close({ graceMs: 2000 });
    const { jobId } = await t.queue.enqueueSync(syncRequest('web'));
    const following = followJob(t.queue, jobId, () => {
      throw new Error('no event expected');
    });
    expect(await t.queue.cancel('web', { userId: 'U9', userName: 'dana' }, jobId)).toEqual({
      cancelled: 'waiting',
      jobId,
    });

    expect(await following).toMatchObject({ jobId, state: 'cancelled' });
    expect(await followJob(t.queue, 'no-such-job', () => undefined)).toBeUndefined();
  });
});
