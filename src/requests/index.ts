/** Requesting a sync: authorize, then approval or enqueue (docs/approvals.md). */

export * from './authorize-request.js';
export { approvalJobId, STRANDED_AFTER_MS } from './enqueue-approved.js';
export { type RequestSyncResult, revisionNameOf, type SyncRequestContext } from './request-sync.js';
