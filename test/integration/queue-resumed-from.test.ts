import { describe, expect, it } from 'vitest';
import type { ResumedFrom } from '../../src/queue/resumed-from.js';
import { SYNC_QUEUE_NAME } from '../../src/queue/store/redis-keys.js';
import type { SyncWorkerOptions } from '../../src/queue/sync-worker.js';
import { useQueueFixture } from './support/queue-fixture.js';
import { jobsFinished, syncRequest, waitFor } from './support/queue-test-env.js';
import { readReported, recordingReporterFactory } from './support/recording-reporter.js';

// The reporter of a delivery that takes over an earlier one's turn is told whose it was, so the thread's resume
// line can be honest: "another worker" only when it was another worker (a single worker that took its own job
// back after its lock lapsed is not one).
describe('sync worker delivery that takes over a job', () => {
  const t = useQueueFixture();

  /** The reporter factory's `resumedFrom` per delivery ('-' when absent), in order. */
  function recordingDeliveries(): {
    deliveries: string[];
    reporterFactory: SyncWorkerOptions['reporterFactory'];
  } {
    const deliveries: string[] = [];
    const reporters = recordingReporterFactory(t.redis, t.prefix);
    return {
      deliveries,
      reporterFactory: (job) => {
        deliveries.push(job.resumedFrom ?? '-');
        return reporters(job);
      },
    };
  }

  async function hookStarted(jobId: string): Promise<void> {
    await waitFor(
      async () => (await readReported(t.redis, t.prefix, jobId)).includes('HookStarted:1'),
      10_000,
      'hook 1',
    );
  }

  it('when the only worker lost its lock and took its own job back, then it is told: this worker', async () => {
    const { deliveries, reporterFactory } = recordingDeliveries();
    t.startWorker(
      { steps: 3, stepMs: 600 },
      { reporterFactory, lockDurationMs: 5000, stalledIntervalMs: 300 },
    );
    const { jobId } = await t.queue.enqueueSync(syncRequest('web'));
    await hookStarted(jobId);
    await t.redis.del(`${t.prefix}:${SYNC_QUEUE_NAME}:${jobId}:lock`);

    const [state] = await jobsFinished(t.queue, [jobId], 20_000);
    expect(state).toMatchObject({ state: 'completed', operationState: { phase: 'Succeeded' } });
    expect(deliveries).toEqual(['-', 'this-worker' satisfies ResumedFrom]);
  });

  it('when another worker takes over a job (its worker shut down mid-run), then it is told: another worker', async () => {
    const first = recordingDeliveries();
    const leaving = t.startWorker({ steps: 3, stepMs: 600 }, { reporterFactory: first.reporterFactory });
    const { jobId } = await t.queue.enqueueSync(syncRequest('web'));
    await hookStarted(jobId);
    const second = recordingDeliveries();
    t.startWorker({ steps: 3, stepMs: 600 }, { reporterFactory: second.reporterFactory });
    await leaving.close({ graceMs: 10_000 });

    const [state] = await jobsFinished(t.queue, [jobId], 20_000);
    expect(state).toMatchObject({ state: 'completed', operationState: { phase: 'Succeeded' } });
    expect(first.deliveries).toEqual(['-']);
    expect(second.deliveries).toEqual(['another-worker' satisfies ResumedFrom]);
  });
});
