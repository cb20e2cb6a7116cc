/**
 * Requesting a sync: requestSync, the one path onto the queue — authorize → approval → enqueue, for every origin
 * (docs/approvals.md, "The request path") — and the approval flow joined to it (createApprovalServices).
 */

export * from './approval-services.js';
export { approvalJobId } from './enqueue-approved.js';
export * from './request-sync.js';
