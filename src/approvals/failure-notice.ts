/**
 * FailureNotice / RecoveryNotice — what an environment's notification channel is told, and the port that tells
 * it (the Slack adapter renders them; src/slack/messages/failure-notice-blocks.ts).
 */
import type { HealthStatus, OperationState, TaskRef } from '../domain/index.js';
import type { Initiator, ReportTarget } from '../reporting/sync-reporter.js';

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
