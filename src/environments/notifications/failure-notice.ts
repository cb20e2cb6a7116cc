/**
 * FailureNotice / RecoveryNotice — what an environment's notification channel is told, and the port that tells
 * it (the Slack adapter renders them; src/slack/messages/failure-notice-blocks.ts).
 */

import type { NotificationTrigger } from '../../applications/index.js';
import type {
  CancelledBy,
  HealthStatus,
  Initiator,
  OperationState,
  RollbackRef,
  TaskRef,
} from '../../domain/index.js';
import type { ReportTarget } from '../../queue/index.js';

export interface FailureNotice {
  /** `failed`: the operation Failed or Errored; `degraded`: it Succeeded but the app is Degraded. */
  kind: 'failed' | 'degraded';
  application: string;
  environment: string;
  revision: string;
  /** Operation phase (Failed, Error, Succeeded). */
  phase: string;
  requester: Initiator;
  /** Slack user ids of the approvers, when the sync was approved. */
  approvers: string[];
  /** What failed: the failing resource or hook and its message. */
  failure: string;
  /** Permalink to the sync thread, when known. */
  threadLink?: string;
  /** Ids to mention (users, groups, here/channel). */
  mention: string[];
  jobId: string;
  /** The Application can be rolled back (no automated sync, a source with revisions): the notice gets a Roll back button. */
  rollbackable?: boolean;
  /**
   * The failing hook's last log lines (`failed`), or the failing Pod's of the Degraded workload (`degraded`), so the
   * channel has the evidence, not only the thread.
   */
  logTail?: string[];
  /** Whose log `logTail` is when it is not the hook's: `Pod/web-7d9c-x (container main, previous instance; CrashLoopBackOff, 4 restarts)`. */
  logSource?: string;
}

/**
 * What a channel subscribed to a trigger gets (argocd-notifications subscriptions, src/applications/notification-subscriptions.ts):
 * once per operation, trigger and channel.
 */
export interface SubscriptionNotice {
  trigger: NotificationTrigger;
  application: string;
  /** Environment name, else the destination namespace. */
  destination: string;
  /** Exact revision (git SHA or content hash); '' before it is resolved. */
  revision: string;
  requester: Initiator;
  jobId: string;
  threadLink?: string;
  /** Operation phase (Running, Succeeded, Failed, Error). */
  phase: string;
  /** What failed, or what is not Healthy (`on-sync-failed`, `on-health-degraded`). */
  detail?: string;
  /** The failing hook's last log lines (`on-sync-failed`), the failing Pod's (`on-health-degraded`). */
  logTail?: string[];
  /** Whose log `logTail` is when it is a Pod's (see FailureNotice.logSource). */
  logSource?: string;
  /** Set when a person cancelled the operation: announced as cancelled, not as a failure (`on-sync-failed`). */
  cancelledBy?: CancelledBy;
  /** The operation was a rollback (`on-rollback`, and the other triggers of a rollback). */
  rollback?: RollbackRef;
  /** A Roll back button is offered (failed or Degraded, and the Application can be rolled back). */
  rollbackable?: boolean;
}

export interface RecoveryNotice {
  application: string;
  environment: string;
  revision: string;
  requester: Initiator;
  threadLink?: string;
  jobId: string;
}

export interface NotificationPoster {
  /** Permalink of the thread's root message (chat.getPermalink), or undefined when Slack has none. */
  permalink(target: ReportTarget): Promise<string | undefined>;
  postFailure(channel: string, notice: FailureNotice): Promise<void>;
  postRecovery(channel: string, notice: RecoveryNotice): Promise<void>;
  /** A subscription's notice (paced per channel by the adapter, within Slack's one message per second). */
  postNotice(channel: string, notice: SubscriptionNotice): Promise<void>;
}

/** `PreSync hook Job/db-migrate failed: <message>`, else the first SyncFailed resource, else the operation message. */
export function describeFailure(state: OperationState): string {
  const results = state.syncResult.resources;
  const hook = results.find(
    (r) => r.hookType !== undefined && (r.hookPhase === 'Failed' || r.hookPhase === 'Error'),
  );
  if (hook)
    return `${hook.syncPhase} hook ${hook.kind}/${hook.name} failed: ${hook.message || state.message}`;
  const resource = results.find((r) => r.status === 'SyncFailed');
  if (resource)
    return `${resource.syncPhase} ${resource.kind}/${resource.name} failed: ${resource.message || state.message}`;
  return state.message || `operation ${state.phase}`;
}

/** The log tail of the hook describeFailure names (the first Failed/Errored hook), or [] when none. */
export function failureLogTail(state: OperationState): string[] {
  const hook = state.syncResult.resources.find(
    (r) => r.hookType !== undefined && (r.hookPhase === 'Failed' || r.hookPhase === 'Error'),
  );
  return hook?.logTail ?? [];
}

/** `Deployment/web Degraded: <message>` for the first unhealthy resource. */
export function describeDegraded(
  health: HealthStatus,
  unhealthy: readonly { task: TaskRef; health: HealthStatus }[],
): string {
  const first = unhealthy[0];
  if (!first) return `application ${health.status}${health.message ? `: ${health.message}` : ''}`;
  const more = unhealthy.length > 1 ? ` (and ${unhealthy.length - 1} more)` : '';
  const message = first.health.message ? `: ${first.health.message}` : '';
  return `${first.task.kind}/${first.task.name} ${first.health.status}${message}${more}`;
}

/** A Degraded workload's failing Pod's log tail (FailureNotifierDeps.degradedLogTail). */
export interface DegradedLogTail {
  /** `Pod/web-7d9c-x (container main, previous instance; CrashLoopBackOff, 4 restarts)`. */
  source: string;
  lines: string[];
}

/** Workload kinds whose failing Pod's log a Degraded notice shows. */
const POD_WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);

/** The first Degraded workload of `unhealthy` (a Deployment, StatefulSet or DaemonSet), as `namespace/Kind/name`. */
export function degradedWorkload(
  unhealthy: readonly { task: TaskRef; health: HealthStatus }[],
): string | undefined {
  const found = unhealthy.find((u) => u.health.status === 'Degraded' && POD_WORKLOADS.has(u.task.kind));
  return found ? `${found.task.namespace}/${found.task.kind}/${found.task.name}` : undefined;
}
