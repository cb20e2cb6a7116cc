/**
 * The request path's entry point for origin `retry`, for src/main/ only (dependency-cruiser
 * `request-origins-only-from-their-owner`): the worker's wiring hands it to the `spec.syncPolicy.retry` policy
 * (src/queue/sync-retry.ts, which sits below src/requests and reaches it only through its port). A retry inherits
 * the authorization of the failed operation it continues — same request, initiator and operation — and is queued
 * as asked with its derived job id and its backoff as the job's delay.
 */
import type { EnqueueResult } from '../queue/index.js';
import { type RequestSyncDeps, requestSyncAnyOrigin, type SyncAsk } from './request-sync.js';

/** The retry's SyncRequest, its derived job id and its backoff. */
export type RetrySyncAsk = Omit<Extract<SyncAsk, { origin: 'retry' }>, 'origin'>;

/** @throws what enqueueSync throws. */
export function requestRetrySync(deps: RequestSyncDeps['retry'], ask: RetrySyncAsk): Promise<EnqueueResult> {
  return requestSyncAnyOrigin(deps, { origin: 'retry', ...ask });
}

/** The deletion job of a removed generated Application and its derived job id. */
export type RemovalDeletionAsk = Omit<Extract<SyncAsk, { origin: 'appset-removal' }>, 'origin'>;

/**
 * Origin `appset-removal`: a generated Application its ApplicationSet no longer generates, whose resources Argo CD
 * would delete (removal-policy.ts), deleted as `/sync delete` deletes (src/deletion; the plan's hash in
 * `request.deletion`). Authorized by the ApplicationSet's policy, as Argo CD's controller acts on it.
 * @throws what enqueueSync throws.
 */
export function requestRemovedApplicationDeletion(
  deps: RequestSyncDeps['appset-removal'],
  ask: RemovalDeletionAsk,
): Promise<EnqueueResult> {
  return requestSyncAnyOrigin(deps, { origin: 'appset-removal', ...ask });
}
