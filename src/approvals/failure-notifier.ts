/**
 * Failure notifications as a SyncReporter (fan it out next to the Slack reporter): a Failed/Errored operation,
 * or a Succeeded one whose app health is Degraded, is announced once in the environment's notification channel
 * (Redis SET NX on the job id, so retries, resumes and redeliveries post nothing twice). The next Succeeded,
 * non-Degraded sync of that Application posts "recovered" once (GETDEL of the app's failing marker).
 * Every outcome is appended to the audit log. Delivery problems go to `onError`, never thrown.
 */
import type { Redis } from 'ioredis';
import type { Application, OperationState, SyncEvent } from '../domain/index.js';
import type { SyncRequest } from '../queue/index.js';
import type { SyncReporter } from '../reporting/sync-reporter.js';
import type { Settings } from '../settings/settings-schema.js';
import type { ApprovalStore } from './approval-store.js';
import type { AuditLog } from './audit-log.js';
import { environmentFor, type ResolvedEnvironment } from './environment-resolver.js';
import {
  describeDegraded,
  describeFailure,
  type FailureNotice,
  type NotificationPoster,
} from './failure-notice.js';

export interface FailureNotifierDeps {
  redis: Redis;
  /** Key prefix (`<prefix>:notify:…`). */
  prefix: string;
  settings: Pick<Settings, 'environments'>;
  findApplication(name: string): Application | undefined;
  /** The Application of a job's request when it is not a registered one (an App of Apps child); optional. */
  applicationOfRequest?(request: SyncRequest): Application | undefined;
  store: Pick<ApprovalStore, 'requestIdForJob' | 'get'>;
  audit: AuditLog;
  poster: NotificationPoster;
  /** Called with delivery errors (default: ignored). */
  onError?(error: unknown): void;
}

export interface FailureNotifier {
  /** A reporter for one job (the worker's `reporterFactory` fans it out next to the Slack reporter). */
  reporterFor(job: { jobId: string; request: SyncRequest }): SyncReporter;
}

/**
 * Whether `app` can be rolled back (`/sync rollback`): Argo CD refuses Applications with automated sync, and a
 * local folder (empty repoURL) has no revisions.
 */
export function canRollBackApplication(app: Application): boolean {
  return !app.syncPolicy?.automated && app.source.repoURL !== '';
}

/** Notified markers live 30 days: longer than any retry or resume of one job. */
const NOTIFIED_TTL_SECONDS = 30 * 86_400;

export function createFailureNotifier(deps: FailureNotifierDeps): FailureNotifier {
  return {
    reporterFor(job) {
      const app = deps.findApplication(job.request.application) ?? deps.applicationOfRequest?.(job.request);
      const reporter = new NotifyingReporter(
        deps,
        job.jobId,
        job.request,
        app && environmentFor(deps.settings, app),
        app !== undefined && canRollBackApplication(app),
      );
      return {
        report: (event) => reporter.observe(event).catch((error: unknown) => deps.onError?.(error)),
        close: () => reporter.finish().catch((error: unknown) => deps.onError?.(error)),
      };
    },
  };
}

class NotifyingReporter {
  private revision: string;
  private state: OperationState | undefined;
  private degraded = false;

  private readonly deps: FailureNotifierDeps;
  private readonly jobId: string;
  private readonly request: SyncRequest;
  private readonly env: ResolvedEnvironment | undefined;
  private readonly rollbackable: boolean;

  constructor(
    deps: FailureNotifierDeps,
    jobId: string,
    request: SyncRequest,
    env: ResolvedEnvironment | undefined,
    rollbackable: boolean,
  ) {
    this.deps = deps;
    this.rollbackable = rollbackable && !request.deletion && !request.operation.dryRun;
    this.jobId = jobId;
    this.request = request;
    this.env = env;
    this.revision = request.operation.revision ?? '';
  }

  async observe(event: SyncEvent): Promise<void> {
    if (event.type === 'OperationStarted') this.revision = event.revision;
    if (event.type === 'OperationCompleted') {
      this.state = event.state;
      this.revision = event.state.syncResult.revision || this.revision;
      if (event.cancelledBy) {
        // Cancelled by a person: audited as Terminated, and not announced as a failure.
        const { userId, reason } = event.cancelledBy;
        await this.recordOutcome(
          'Terminated',
          `${event.message} (cancelled by <@${userId}>${reason ? `: ${reason}` : ''})`,
        );
        return;
      }
      await this.recordOutcome(event.phase, event.message);
      if (event.phase === 'Failed' || event.phase === 'Error') {
        await this.notifyFailure('failed', describeFailure(event.state), event.phase);
      }
    }
    if (
      event.type === 'HealthAssessed' &&
      event.health.status === 'Degraded' &&
      this.state?.phase === 'Succeeded'
    ) {
      this.degraded = true;
      await this.notifyFailure('degraded', describeDegraded(event.health, event.unhealthy), 'Succeeded');
    }
  }

  /** After a good sync: "recovered" once, if the Application's last notice was a failure. */
  async finish(): Promise<void> {
    const channel = this.env?.settings.notifications?.channel;
    // "recovered" is about syncs; a deletion leaves the failing mark for the next good sync to clear.
    if (this.request.deletion) return;
    if (!this.env || !channel || this.state?.phase !== 'Succeeded' || this.degraded) return;
    if ((await this.deps.redis.getdel(this.failingKey())) === null) return;
    const { threadLink } = await this.context();
    await this.deps.poster.postRecovery(channel, {
      application: this.request.application,
      environment: this.env.name,
      revision: this.revision,
      requester: this.request.initiator,
      jobId: this.jobId,
      ...(threadLink ? { threadLink } : {}),
    });
  }

  private async notifyFailure(kind: FailureNotice['kind'], failure: string, phase: string): Promise<void> {
    const notifications = this.env?.settings.notifications;
    if (!this.env || !notifications) return;
    const key = `${this.deps.prefix}:notify:notified:${this.jobId}`;
    if ((await this.deps.redis.set(key, '1', 'EX', NOTIFIED_TTL_SECONDS, 'NX')) !== 'OK') return;
    try {
      await this.deps.poster.postFailure(notifications.channel, {
        kind,
        application: this.request.application,
        environment: this.env.name,
        revision: this.revision,
        phase,
        requester: this.request.initiator,
        failure,
        mention: notifications.mention,
        jobId: this.jobId,
        rollbackable: this.rollbackable,
        ...(await this.context()),
      });
      await this.deps.redis.set(this.failingKey(), this.jobId);
    } catch (error) {
      await this.deps.redis.del(key); // not delivered: a retry of this job may try again
      throw error;
    }
  }

  private failingKey(): string {
    return `${this.deps.prefix}:notify:failing:${this.request.application}`;
  }

  /** Approvers of the job's approval request and the thread's permalink, when known. */
  private async context(): Promise<{ approvers: string[]; threadLink?: string }> {
    const requestId = await this.deps.store.requestIdForJob(this.jobId);
    const record = requestId ? await this.deps.store.get(requestId) : undefined;
    // An App of Apps child has no thread of its own: link its parent's, where its line is.
    const target = this.request.target ?? this.request.appOfApps?.parentTarget;
    const threadLink = target ? await this.deps.poster.permalink(target).catch(() => undefined) : undefined;
    return { approvers: record?.approvals.map((a) => a.userId) ?? [], ...(threadLink ? { threadLink } : {}) };
  }

  private async recordOutcome(phase: string, message: string): Promise<void> {
    const target = this.request.target;
    await this.deps.audit.append({
      type: 'outcome',
      application: this.request.application,
      jobId: this.jobId,
      phase,
      reason: message,
      revision: this.revision,
      ...(this.request.deletion ? { operation: 'delete' as const } : {}),
      ...(this.env ? { environment: this.env.name } : {}),
      ...(target ? { channel: target.channel, messageTs: target.threadTs } : {}),
    });
  }
}
