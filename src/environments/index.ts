/** Environments (wavesync.yaml `environments:`): who may do what, freeze windows, auto-sync policy, approvals, the audit
 * log and failure notifications (docs/approvals.md). */

export * from './approvals/approval-button.js';
export type { ApprovalDeps } from './approvals/approval-deps.js';
export type { ApprovalMessenger } from './approvals/approval-messenger.js';
export * from './approvals/approval-request.js';
export {
  type ApprovalStore,
  type ApprovalStoreOptions,
  createApprovalStore,
  type DecideOutcome,
} from './approvals/approval-store.js';
export {
  type Approvals,
  type AuditView,
  createApprovals,
  type PendingApproval,
  type WithdrawResult,
} from './approvals/approvals.js';
export * from './approvals/authorize-decision.js';
export { describeStatus } from './approvals/close-approval.js';
export type { DecisionClick, DecisionResult } from './approvals/decide-approval.js';
export * from './approvals/diff-summary.js';
export { enqueueStranded, STRANDED_AFTER_MS } from './approvals/enqueue-stranded.js';
export {
  DELETION_REVISION,
  type GateRequestContext,
  type GateResult,
  gateRequest,
} from './approvals/gate-request.js';
export * from './approvals/live-diff.js';
export * from './approvals/plan-summary.js';
export * from './approvals/sync-preview.js';
export * from './audit-log.js';
export * from './authorize-request.js';
export * from './auto-sync-policy.js';
export * from './check-request.js';
export * from './environment-resolver.js';
export * from './freeze-windows.js';
export * from './group-membership.js';
export * from './notifications/failure-notice.js';
export {
  canRollBackApplication,
  createFailureNotifier,
  type FailureNotifier,
  type FailureNotifierDeps,
  postSubscriptionNotice,
  subscriptionsOf,
} from './notifications/failure-notifier.js';
export * from './notifications/notification-marks.js';
export * from './notifications/redis-notification-marks.js';
export * from './permissions.js';
export * from './principal-mentions.js';
export * from './revision-rules.js';
