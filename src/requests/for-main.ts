/**
 * The request path for the origins src/main/ owns (dependency-cruiser `request-origins-only-from-their-owner`):
 * - `retry`: the worker's wiring hands it to the `spec.syncPolicy.retry` policy (src/queue/sync-retry.ts, which
 *   sits below src/requests and reaches it only through its port). A retry inherits the authorization of the failed
 *   operation it continues — same request, initiator and operation — and is queued as asked with its derived job id
 *   and its backoff as the job's delay;
 */
import type { EnqueueResult, SyncJob } from '../queue/index.js';
import type { EnqueuePort } from './enqueue-port.js';

/** The retry's SyncJob, its job id (derived from the failed job's: one retry per failure) and its backoff. */
export interface RetrySyncAsk {
  request: SyncJob;
  jobId: string;
  delayMs: number;
}

/** @throws what enqueueSync throws (the worker's `ended` hook runs again when the job is retried). */
export function requestRetrySync(deps: { queue: EnqueuePort }, ask: RetrySyncAsk): Promise<EnqueueResult> {
  return deps.queue.enqueueSync(ask.request, { jobId: ask.jobId, delayMs: ask.delayMs });
}
