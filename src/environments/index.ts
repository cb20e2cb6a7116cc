/** Environments (wavesync.yaml `environments:`): who may do what, freeze windows, auto-sync policy, approvals, the audit
 * log and failure notifications (docs/approvals.md). */

export {
  APPROVE_ACTION_ID,
  decodeApprovalButtonValue,
  encodeApprovalButtonValue,
  REJECT_ACTION_ID,
  VIEW_DIFF_ACTION_ID,
} from './approvals/approval-button.js';
export type { ApprovalDeps } from './approvals/approval-deps.js';
export type { ApprovalMessenger } from './approvals/approval-messenger.js';
export {
  type ApprovalRecord,
  type DeletionApproval,
  type MessageRef,
  rerunCommandOf,
} from './approvals/approval-request.js';
export { type ApprovalStore, createApprovalStore } from './approvals/approval-store.js';
export {
  type ApprovalFlow,
  type Approvals,
  type AuditView,
  createApprovals,
  type PendingApproval,
  type RequestApprovals,
  type WithdrawResult,
} from './approvals/approvals.js';
export type { Decision } from './approvals/authorize-decision.js';
export { type DiffSummary, diffSummaryWork, summarizeDiff } from './approvals/diff-summary.js';
export { STRANDED_AFTER_MS } from './approvals/enqueue-stranded.js';
export type { RequestDiffResult } from './approvals/live-diff.js';
export type { PlanSummary } from './approvals/plan-summary.js';

export {
  createSyncPreviewer,
  previewForTransfer,
  type SyncPreview,
  type SyncPreviewer,
} from './approvals/sync-preview.js';
export { type AuditEntry, type AuditLog, type AuditRecord, createAuditLog } from './audit-log.js';
export {
  type AutomatedSyncDecision,
  automatedSyncDecision,
  autoSyncAllowed,
  driftChannelOf,
} from './auto-sync-policy.js';
export type { PolicyVerdict, RequestAsk } from './check-request.js';
export { assertKnownEnvironments, environmentFor, environmentNameOf } from './environment-resolver.js';
export { createGroupMembership, type ListGroupMembers } from './group-membership.js';
export type {
  FailureNotice,
  NotificationPoster,
  RecoveryNotice,
  SubscriptionNotice,
} from './notifications/failure-notice.js';
export {
  createFailureNotifier,
  type FailureNotifier,
  postSubscriptionNotice,
  subscriptionsOf,
} from './notifications/failure-notifier.js';
export type { NotificationMarks } from './notifications/notification-marks.js';
export { redisNotificationMarks } from './notifications/redis-notification-marks.js';
export type { ActionContext, Authorization } from './permissions.js';
export { describePrincipals, mentionOf } from './principal-mentions.js';
