import { describe, expect, it } from 'vitest';
import type { OperationState } from '../../src/domain/index.js';
import type { QueueLogger } from '../../src/queue/store/redis-connections.js';
import { SYNC_QUEUE_NAME, syncKeys } from '../../src/queue/store/redis-keys.js';
import { recordedOperation } from '../../src/queue/sync-request.js';
import type { SyncRunner } from '../../src/queue/sync-runner.js';
import { useQueueFixture } from './support/queue-fixture.js';
import { jobsFinished, syncRequest, waitFor } from './support/queue-test-env.js';
import { recordingReporterFactory } from './support/recording-reporter.js';

// A live worker whose event loop is starved for most of its job lock (a CPU-starved CI machine, a long GC, a
// synchronous burst; the kube-outage e2e's one worker lost its 3 s lock so and took its own job back, saying
// "Resumed by another worker") must keep the job: one run, never resumed, never handed back to BullMQ.
// Each pause starts late in the renewal cycle when the worker's cadence lets it (≥ LATE_MS after the last
// renewal, read from the lock's PTTL), the worst case for the lock.
const LOCK_MS = 5000;
const PAUSE_MS = 4100;
const LATE_MS = 1000;
const PAUSES = 2;

describe('sync worker whose event loop is starved for most of its lock', () => {
  const t = useQueueFixture();

  it('keeps its job: the operation runs once, is never resumed, and succeeds', async () => {
    const runs: { resumed: boolean }[] = [];
    const deliveries: unknown[] = [];
    const lockWarnings: object[] = [];
    const logger: QueueLogger = {
      debug() {},
      info() {},
      error() {},
      warn: (obj, msg) => {
        if (msg?.includes('lock')) lockWarnings.push(obj);
      },
    };
    const lockKey = (jobId: string) => `${t.prefix}:${SYNC_QUEUE_NAME}:${jobId}:lock`;
    const runner: SyncRunner = async (ctx) => {
      runs.push({ resumed: ctx.initialState !== undefined });
      let state: OperationState = ctx.initialState ?? {
        operation: recordedOperation(ctx.request),
        phase: 'Running',
        message: 'Running',
        syncResult: { revision: 'abc123', resources: [] },
        startedAt: new Date().toISOString(),
      };
      for (let i = 1; i <= PAUSES; i++) {
        state = { ...state, message: `step ${i}` };
        await ctx.persist(state);
        await lateInRenewalCycle(() => t.redis.pttl(lockKey(ctx.jobId)));
        starve(PAUSE_MS);
      }
      state = {
        ...state,
        phase: 'Succeeded',
        message: 'successfully synced',
        finishedAt: new Date().toISOString(),
      };
      await ctx.persist(state);
      return state;
    };
    const reporters = recordingReporterFactory(t.redis, t.prefix);
    t.startWorker(
      { steps: 0, stepMs: 0 },
      {
        runner,
        reporterFactory: (job) => {
          deliveries.push(job.retry ?? 'first');
          return reporters(job);
        },
        lockDurationMs: LOCK_MS,
        stalledIntervalMs: 1000,
        logger,
      },
    );

    const { jobId } = await t.queue.enqueueSync(syncRequest('web'));
    // Polled on the test's own connection (no command timeout: the pauses starve this process too); a second run
    // is the defect, so it ends the wait as well.
    const recorded = syncKeys(t.prefix, SYNC_QUEUE_NAME).job(jobId);
    await waitFor(
      async () =>
        runs.length > 1 || /completed|failed|cancelled/.test((await t.redis.hget(recorded, 'status')) ?? ''),
      40_000,
      'the job to end',
    );
    expect(runs).toEqual([{ resumed: false }]);
    const [status] = await jobsFinished(t.queue, [jobId], 10_000);
    expect(status).toMatchObject({ state: 'completed', operationState: { phase: 'Succeeded' } });
    expect(deliveries).toEqual(['first']);
    expect(lockWarnings).toEqual([]);
  }, 60_000);
});

/** Resolves once the lock's last renewal is ≥ LATE_MS old, or after half a lock if renewals come faster. */
async function lateInRenewalCycle(pttl: () => Promise<number>): Promise<void> {
  const deadline = Date.now() + LOCK_MS / 2;
  while (Date.now() < deadline && (await pttl()) > LOCK_MS - LATE_MS) {
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Hold the event loop (no timer, no socket is served) for `ms`. */
function starve(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // busy: what a starved or synchronous worker looks like to BullMQ's lock renewal
  }
}
