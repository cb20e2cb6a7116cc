/**
 * followJob — deliver a queued job's SyncEvents to `onEvent` as the worker running it reports them (from the
 * job's event stream, from the beginning), and resolve with the job's final status when it ends.
 */
import type { SyncEvent } from '../domain/index.js';
import type { SyncQueue } from './sync-queue.js';
import type { JobStatus } from './sync-queue-client.js';

export interface FollowOptions {
  /** Stop following (resolves with the status at that moment). */
  signal?: AbortSignal;
  /** Longest single blocking read (ms, default 1000). */
  blockMs?: number;
}

/**
 * Resolves with the final JobStatus (completed, failed or cancelled), or the current one when `signal`
 * aborts; undefined when the job is unknown.
 */
export async function followJob(
  queue: SyncQueue,
  jobId: string,
  onEvent: (event: SyncEvent) => void | Promise<void>,
  options: FollowOptions = {},
): Promise<JobStatus | undefined> {
  let after = '0';
  while (!options.signal?.aborted) {
    const entries = await queue.readJobEvents(jobId, after, options.blockMs ?? 1000);
    for (const entry of entries) {
      after = entry.id;
      if (entry.kind === 'end') return queue.jobStatus(jobId);
      await onEvent(entry.event);
    }
    if (entries.length === 0) {
      const status = await queue.jobStatus(jobId);
      if (!status || isFinished(status)) return status;
    }
  }
  return queue.jobStatus(jobId);
}

function isFinished(status: JobStatus): boolean {
  return status.state === 'completed' || status.state === 'failed' || status.state === 'cancelled';
}
