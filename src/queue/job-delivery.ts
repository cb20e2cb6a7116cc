/**
 * What a delivery of a sync job meets before its run (./sync-processor.ts): an older run of the same job still on
 * this worker, a retry's backoff not yet over, a job that ended before this delivery, and whether this delivery is
 * BullMQ's retry after a transient error.
 */
import { DelayedError, type Job, UnrecoverableError } from 'bullmq';
import type { OperationState } from '../domain/index.js';
import type { JobRecord } from './line/app-line.js';
import type { RunningJobs } from './line/running-jobs.js';
import type { SyncJobData } from './sync-queue.js';
import type { SyncRequest } from './sync-request.js';

/**
 * BullMQ re-delivers a job whose lock expired, possibly to this same worker while the old run still sleeps in
 * a step. Its lock manager tracks locks by job id, so the two runs would untrack each other's lock: flag the
 * old run (it stops at its next persist) and come back shortly, once it is gone.
 */
export async function waitForStaleRun(
  deps: { running: RunningJobs; recheckMs: number },
  job: Job<SyncJobData>,
  owner: string,
): Promise<void> {
  const stale = deps.running.get(job.id ?? '');
  if (!stale) return;
  stale.lockLost = true;
  await job.moveToDelayed(Date.now() + Math.min(deps.recheckMs, 1000), owner);
  throw new DelayedError();
}

/**
 * A retry (`spec.syncPolicy.retry`) runs no earlier than its backoff after it was enqueued, even when the line
 * promotes it sooner (promoteHead wakes a delayed head): back to the delayed set until then.
 */
export async function waitForRetryBackoff(
  job: Job<SyncJobData>,
  request: SyncRequest,
  owner: string,
): Promise<void> {
  if (!request.retry || !job.data.enqueuedAt) return;
  const due = Date.parse(job.data.enqueuedAt) + request.retry.delayMs;
  if (!(due > Date.now())) return;
  await job.moveToDelayed(due, owner);
  throw new DelayedError();
}

/** The job ended before this delivery (cancelled while waiting, or finished just before its worker died). */
export function endedEarlier(record: JobRecord | undefined, status: string): OperationState | undefined {
  if (status === 'completed') return record?.state;
  throw new UnrecoverableError(record?.message ?? status);
}

/** `{ retry }` when BullMQ delivers the job again after a failed attempt (a transient error), else nothing. */
export function retryOf(job: Job<SyncJobData>): {
  retry?: { attempt: number; attempts: number; reason: string };
} {
  if (job.attemptsMade < 1) return {};
  return {
    retry: {
      attempt: job.attemptsMade + 1,
      attempts: job.opts.attempts ?? 1,
      reason: job.failedReason ?? 'a transient error',
    },
  };
}
