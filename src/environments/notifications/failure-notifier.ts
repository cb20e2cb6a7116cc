/**
 * Notifications as a SyncReporter (fan it out next to the Slack reporter):
 * - failure notices: a Failed/Errored operation, or a Succeeded one whose app health is Degraded, is announced once
 *   in the environment's notification channel (a claim on the job id in NotificationMarks, so retries, resumes and
 *   redeliveries post nothing twice), with the failing hook's log tail. The next Succeeded, non-Degraded sync of
 *   that Application posts "recovered" once (clearing the app's failing mark);
 * - subscriptions (argocd-notifications triggers, src/applications/notification-subscriptions.ts): the Application's
 *   `notifications.argoproj.io/subscribe.<trigger>.slack` annotations and its environment's `subscriptions` get
 *   `on-sync-running` (the operation started), `on-sync-succeeded`, `on-sync-failed` (Failed/Error; a sync a person
 *   cancelled is announced as cancelled by them instead), `on-deployed` (Succeeded and then Healthy),
 *   `on-health-degraded` (Succeeded and then Degraded) and `on-rollback` (a rollback ended), each once per
 *   operation (`on-deployed` once per revision, as Argo CD's catalog), trigger and channel (a claim in
 *   NotificationMarks, 30 days; in Redis `<prefix>:notify:sent:<jobId | app:<name>:revision:<sha>>:<trigger>:
 *   <channel>`), linking the sync's thread. Dry runs and deletions notify no subscription. The alerts channel,
 *   which already gets the failure notice, gets no second `on-sync-failed` / `on-health-degraded` notice.
 * Every outcome is appended to the audit log. Delivery problems go to `onError`, never thrown.
 */

import {
  type NotificationTrigger,
  parseEnvironmentSubscriptions,
  parseSubscriptionAnnotations,
  type Subscriptions,
  subscribedChannels,
} from '../../applications/index.js';
import type { Application, OperationState, SyncEvent } from '../../domain/index.js';
import { recordedOperation, type SyncReporter, type SyncRequest } from '../../queue/index.js';
import { canRollBackApplication } from '../../rollback/index.js';
import type { Settings } from '../../settings/index.js';
import type { ApprovalStore } from '../approvals/approval-store.js';
import type { AuditLog } from '../audit-log.js';
import { environmentFor, type ResolvedEnvironment } from '../environment-resolver.js';
import { rollbackButtonUsable } from '../permissions.js';
import {
  type DegradedLogTail,
  degradedWorkload,
  describeDegraded,
  describeFailure,
  type FailureNotice,
  failureLogTail,
  type NotificationPoster,
  type SubscriptionNotice,
} from './failure-notice.js';
import type { NotificationMarks } from './notification-marks.js';

export interface FailureNotifierDeps {
  /** Which notices were claimed and which Applications are failing (redisNotificationMarks in production). */
  marks: NotificationMarks;
  settings: Pick<Settings, 'environments'>;
  findApplication(name: string): Application | undefined;
  /** The Application of a job's request when it is not a registered one (an App of Apps child); optional. */
  applicationOfRequest?(request: SyncRequest): Application | undefined;
  store: Pick<ApprovalStore, 'requestIdForJob' | 'get'>;
  audit: AuditLog;
  poster: NotificationPoster;
  /** Called with delivery errors (default: ignored). */
  onError?(error: unknown): void;
  /**
   * The failing Pod's last lines of a Degraded workload (`namespace/Kind/name`) of `application`, Secrets redacted
   * and bounded (src/resource-actions ResourceViews.failingPodLog); undefined when none fails. Without it (no
   * cluster access) a Degraded notice has no log tail. Errors only leave the log tail out.
   */
  degradedLogTail?(application: string, workload: string): Promise<DegradedLogTail | undefined>;
}

export interface FailureNotifier {
  /** A reporter for one job (the worker's `reporterFactory` fans it out next to the Slack reporter). */
  reporterFor(job: { jobId: string; request: SyncRequest }): SyncReporter;
}

/** The subscriptions of `app`: its annotations', then its environment's defaults. */
export function subscriptionsOf(app: Application, env: ResolvedEnvironment | undefined): Subscriptions[] {
  return [
    parseSubscriptionAnnotations(app.annotations).subscriptions,
    ...(env ? [parseEnvironmentSubscriptions(env.name, env.settings.subscriptions).subscriptions] : []),
  ];
}

/**
 * What a trigger's notice is sent once per, as Argo CD's notifications catalog defines `oncePer`: `on-deployed`
 * once per Application and synced revision (`oncePer: app.status.operationState?.syncResult?.revision`), so a
 * re-sync of a revision already deployed and Healthy notifies nobody again; every other trigger once per
 * operation (the job id).
 */
function oncePerKey(
  notice: Pick<SubscriptionNotice, 'trigger' | 'jobId' | 'application' | 'revision'>,
): string {
  return notice.trigger === 'on-deployed' && notice.revision !== ''
    ? `app:${notice.application}:revision:${notice.revision}`
    : notice.jobId;
}

/**
 * Post `notice` to each of `channels` once per `oncePerKey` (the operation; for `on-deployed` the revision),
 * trigger and channel, from any process: a claim in `marks` (NOTIFIED_TTL_SECONDS), released again when Slack
 * refused the post so a later attempt delivers it. Rejects when a claim cannot be taken or released; delivery
 * errors go to `onError` after every channel was tried.
 */
export async function postSubscriptionNotice(
  deps: Pick<FailureNotifierDeps, 'marks' | 'poster' | 'onError'>,
  channels: readonly string[],
  notice: SubscriptionNotice,
): Promise<void> {
  const errors: unknown[] = [];
  const oncePer = oncePerKey(notice);
  for (const channel of channels) {
    if (!(await deps.marks.claimSubscriptionNotice(oncePer, notice.trigger, channel))) continue;
    try {
      await deps.poster.postNotice(channel, notice);
    } catch (error) {
      await deps.marks.releaseSubscriptionNotice(oncePer, notice.trigger, channel);
      errors.push(error);
    }
  }
  for (const error of errors) deps.onError?.(error);
}

export function createFailureNotifier(deps: FailureNotifierDeps): FailureNotifier {
  return {
    reporterFor(job) {
      const app = deps.findApplication(job.request.application) ?? deps.applicationOfRequest?.(job.request);
      const reporter = new NotifyingReporter(
        deps,
        job.jobId,
        job.request,
        app && environmentFor(deps.settings, app),
        app,
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
  /** The Application's annotations and its environment's defaults; none for dry runs and deletions. */
  private readonly subscriptions: Subscriptions[];
  private readonly destination: string;
  private threadLink: Promise<string | undefined> | undefined;
  private readonly background: Promise<void>[] = [];

  constructor(
    deps: FailureNotifierDeps,
    jobId: string,
    request: SyncRequest,
    env: ResolvedEnvironment | undefined,
    app: Application | undefined,
  ) {
    this.deps = deps;
    const real = !request.deletion && !request.operation.dryRun;
    this.rollbackable = real && app !== undefined && canRollBackApplication(app);
    this.subscriptions = real && app ? subscriptionsOf(app, env) : [];
    this.destination = env?.name ?? app?.destination.namespace ?? app?.destination.name ?? '';
    this.jobId = jobId;
    this.request = request;
    this.env = env;
    this.revision = recordedOperation(request).revision ?? '';
  }

  async observe(event: SyncEvent): Promise<void> {
    if (event.type === 'OperationStarted') {
      this.revision = event.revision;
      // In the background: the operation does not wait for Slack to start; close() waits for it.
      this.background.push(
        this.notifySubscribers('on-sync-running', { phase: 'Running' }).catch((error: unknown) =>
          this.deps.onError?.(error),
        ),
      );
    }
    if (event.type === 'OperationCompleted') {
      this.state = event.state;
      this.revision = event.state.syncResult.revision || this.revision;
      if (event.cancelledBy) {
        // Cancelled by a person: audited as Terminated, and announced as cancelled, not as a failure.
        const { userId, reason } = event.cancelledBy;
        await this.recordOutcome(
          'Terminated',
          `${event.message} (cancelled by <@${userId}>${reason ? `: ${reason}` : ''})`,
        );
        const cancelled = { phase: event.phase, detail: event.message, cancelledBy: event.cancelledBy };
        await this.notifySubscribers('on-sync-failed', cancelled);
        await this.notifySubscribers('on-rollback', cancelled);
        return;
      }
      await this.recordOutcome(event.phase, event.message);
      if (event.phase === 'Failed' || event.phase === 'Error') {
        await this.notifyFailure('failed', describeFailure(event.state), event.phase);
        const failed = {
          phase: event.phase,
          detail: describeFailure(event.state),
          logTail: failureLogTail(event.state),
          rollbackable: this.rollbackable,
        };
        await this.notifySubscribers('on-sync-failed', failed);
        await this.notifySubscribers('on-rollback', failed);
      }
      if (event.phase === 'Succeeded') {
        await this.notifySubscribers('on-sync-succeeded', { phase: event.phase });
        await this.notifySubscribers('on-rollback', { phase: event.phase });
      }
    }
    if (event.type === 'HealthAssessed' && this.state?.phase === 'Succeeded') {
      if (event.health.status === 'Degraded') {
        this.degraded = true;
        const detail = describeDegraded(event.health, event.unhealthy);
        const evidence = await this.degradedEvidence(event.unhealthy);
        await this.notifyFailure('degraded', detail, 'Succeeded', evidence);
        await this.notifySubscribers('on-health-degraded', {
          phase: 'Succeeded',
          detail,
          rollbackable: this.rollbackable,
          ...(evidence ? { logTail: evidence.lines, logSource: evidence.source } : {}),
        });
      }
      if (event.health.status === 'Healthy')
        await this.notifySubscribers('on-deployed', { phase: 'Succeeded' });
    }
  }

  /**
   * Post `trigger`'s notice to each subscribed channel once per operation (a claim per job, trigger and channel;
   * given up again when Slack refused it, so a retry may deliver it). `on-rollback` only for rollbacks.
   */
  private async notifySubscribers(
    trigger: NotificationTrigger,
    outcome: Pick<
      SubscriptionNotice,
      'phase' | 'detail' | 'logTail' | 'logSource' | 'cancelledBy' | 'rollbackable'
    >,
  ): Promise<void> {
    if (trigger === 'on-rollback' && !this.request.rollback) return;
    const alerts = this.env?.settings.notifications?.channel;
    const alerted =
      (trigger === 'on-sync-failed' || trigger === 'on-health-degraded') && !outcome.cancelledBy;
    const channels = subscribedChannels(trigger, ...this.subscriptions).filter(
      (c) => !(alerted && c === alerts),
    );
    if (channels.length === 0) return;
    this.threadLink ??= this.context().then((c) => c.threadLink);
    const threadLink = await this.threadLink;
    const notice: SubscriptionNotice = {
      trigger,
      application: this.request.application,
      destination: this.destination,
      revision: this.revision,
      requester: this.request.initiator,
      jobId: this.jobId,
      ...(threadLink ? { threadLink } : {}),
      ...(this.request.rollback ? { rollback: this.request.rollback } : {}),
      ...outcome,
    };
    await postSubscriptionNotice(this.deps, channels, notice);
  }

  /** After a good sync: "recovered" once, if the Application's last notice was a failure. */
  async finish(): Promise<void> {
    await Promise.all(this.background);
    const channel = this.env?.settings.notifications?.channel;
    // "recovered" is about syncs; a deletion leaves the failing mark for the next good sync to clear.
    if (this.request.deletion) return;
    if (!this.env || !channel || this.state?.phase !== 'Succeeded' || this.degraded) return;
    if (!(await this.deps.marks.clearFailing(this.request.application))) return;
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

  /**
   * The failing Pod's log tail of the first Degraded workload, read only when someone will be told (the alerts
   * channel, or an `on-health-degraded` subscription); undefined when there is none or it cannot be read.
   */
  private async degradedEvidence(
    unhealthy: Parameters<typeof degradedWorkload>[0],
  ): Promise<DegradedLogTail | undefined> {
    const workload = degradedWorkload(unhealthy);
    const told =
      this.env?.settings.notifications !== undefined ||
      subscribedChannels('on-health-degraded', ...this.subscriptions).length > 0;
    if (!workload || !told || !this.deps.degradedLogTail) return undefined;
    try {
      const tail = await this.deps.degradedLogTail(this.request.application, workload);
      return tail && tail.lines.length > 0 ? tail : undefined;
    } catch (error) {
      this.deps.onError?.(error);
      return undefined;
    }
  }

  private async notifyFailure(
    kind: FailureNotice['kind'],
    failure: string,
    phase: string,
    evidence?: DegradedLogTail,
  ): Promise<void> {
    const notifications = this.env?.settings.notifications;
    if (!this.env || !notifications) return;
    if (!(await this.deps.marks.claimFailureNotice(this.jobId))) return;
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
        // No button where it can never work (permissions.ts: who the `rollback` grants name, from this channel).
        rollbackable:
          this.rollbackable &&
          rollbackButtonUsable(this.env, this.request.application, notifications.channel),
        ...(kind === 'failed' && this.state ? { logTail: failureLogTail(this.state) } : {}),
        ...(kind === 'degraded' && evidence ? { logTail: evidence.lines, logSource: evidence.source } : {}),
        ...(await this.context()),
      });
      await this.deps.marks.markFailing(this.request.application, this.jobId);
    } catch (error) {
      await this.deps.marks.releaseFailureNotice(this.jobId); // not delivered: a retry of this job may try again
      throw error;
    }
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
