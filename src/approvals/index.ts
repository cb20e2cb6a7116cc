/** Production approvals, who-may-do-what, the audit log and failure notifications (docs/approvals.md). */
export * from './approval-button.js';
export type { ApprovalDeps } from './approval-deps.js';
export type { ApprovalMessenger } from './approval-messenger.js';
export * from './approval-request.js';
export * from './approval-services.js';
export {
  type ApprovalStore,
  type ApprovalStoreOptions,
  createApprovalStore,
  type DecideOutcome,
} from './approval-store.js';
export {
  type Approvals,
  type AuditView,
  createApprovals,
  type PendingApproval,
  type WithdrawResult,
} from './approvals.js';
export * from './audit-log.js';
export * from './authorize-decision.js';
export * from './authorize-request.js';
export * from './auto-sync-policy.js';
export { describeStatus } from './close-approval.js';
export type { DecisionClick, DecisionResult } from './decide-approval.js';
export * from './diff-summary.js';
export { approvalJobId, STRANDED_AFTER_MS } from './enqueue-approved.js';
export * from './environment-resolver.js';
export * from './failure-notice.js';
export {
  canRollBackApplication,
  createFailureNotifier,
  type FailureNotifier,
  type FailureNotifierDeps,
  postOncePerChannel,
  subscriptionsOf,
} from './failure-notifier.js';
export * from './freeze-windows.js';
export * from './group-membership.js';
export * from './live-diff.js';
export * from './permissions.js';
export * from './plan-summary.js';
export * from './principal-mentions.js';
export { type RequestSyncResult, revisionNameOf, type SyncRequestContext } from './request-sync.js';
export * from './revision-rules.js';
export * from './sync-preview.js';
