/**
 * Failure notifications as a SyncReporter (fan it out next to the Slack reporter): a Failed/Errored operation,
 * or a Succeeded one whose app health is Degraded, is announced once in the environment's notification channel
 * (Redis SET NX on the job id, so retries, resumes and redeliveries post nothing twice). The next Succeeded,
 * non-Degraded sync of that Application posts "recovered" once (GETDEL of the app's failing marker).
 * Every outcome is appended to the audit log. Delivery problems are logged, never thrown.
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
  prefix: string;
  settings: Pick<Settings, 'environments'>;
  findApplication(name: string): Application | undefined;
  store: ApprovalStore;
  audit: AuditLog;
  poster: NotificationPoster;
  /** Called with delivery errors (default: ignored). */
  onError?(error: unknown): void;
}

export interface FailureNotifier {
  reporterFor(job: { jobId: string; request: SyncRequest }): SyncReporter;
}

interface Outcome {
  state?: OperationState;
  revision: string;
  degraded?: string;
}

export function createFailureNotifier(deps: FailureNotifierDeps): FailureNotifier {
  const notifiedKey = (jobId: string) => `${deps.prefix}:notify:notified:${jobId}`;
  const failingKey = (app: string) => `${deps.prefix}:notify:failing:${app}`;
  const onError = deps.onError ?? (() => undefined);

  async function notify(env: ResolvedEnvironment, notice: Omit<FailureNotice, 'mention' | 'environment'>) {
    const channel = env.settings.notifications?.channel;
    if (!channel) return;
    const key = notifiedKey(notice.jobId);
    if ((await deps.redis.set(key, '1', 'EX', 30 * 86_400, 'NX')) !== 'OK') return;
    try {
      await deps.poster.postFailure(channel, {
        ...notice,
        environment: env.name,
        mention: env.settings.notifications?.mention ?? [],
      });
      await deps.redis.set(failingKey(notice.application), notice.jobId);
    } catch (error) {
      await deps.redis.del(key);
      throw error;
    }
  }

  return {
    reporterFor({ jobId, request }) {
      const app = deps.findApplication(request.application);
      const env = app && environmentFor(deps.settings, app);
      const outcome: Outcome = { revision: request.operation.revision ?? '' };
      const context = async () => {
        const requestId = await deps.store.requestIdForJob(jobId);
        const record = requestId ? await deps.store.get(requestId) : undefined;
        const threadLink = request.target
          ? await deps.poster.permalink(request.target).catch(() => undefined)
          : undefined;
        return {
          approvers: record?.approvals.map((a) => a.userId) ?? [],
          ...(threadLink ? { threadLink } : {}),
        };
      };
      const failure = async (kind: FailureNotice['kind'], failureText: string, phase: string) => {
        if (!env) return;
        await notify(env, {
          kind,
          application: request.application,
          revision: outcome.revision,
          phase,
          requester: request.initiator,
          failure: failureText,
          jobId,
          ...(await context()),
        });
      };
      return {
        async report(event: SyncEvent) {
          try {
            await observe(event);
          } catch (error) {
            onError(error);
          }
        },
        async close() {
          try {
            await finish();
          } catch (error) {
            onError(error);
          }
        },
      };

      async function observe(event: SyncEvent): Promise<void> {
        if (event.type === 'OperationStarted') outcome.revision = event.revision;
        if (event.type === 'OperationCompleted') {
          outcome.state = event.state;
          if (event.state.syncResult.revision) outcome.revision = event.state.syncResult.revision;
          await deps.audit.append({
            type: 'outcome',
            application: request.application,
            jobId,
            phase: event.phase,
            reason: event.message,
            revision: outcome.revision,
            ...(env ? { environment: env.name } : {}),
            ...(request.target
              ? { channel: request.target.channel, messageTs: request.target.threadTs }
              : {}),
          });
          if (event.phase === 'Failed' || event.phase === 'Error')
            await failure('failed', describeFailure(event.state), event.phase);
        }
        if (
          event.type === 'HealthAssessed' &&
          event.health.status === 'Degraded' &&
          outcome.state?.phase === 'Succeeded'
        ) {
          outcome.degraded = describeDegraded(event.health, event.unhealthy);
          await failure('degraded', outcome.degraded, 'Succeeded');
        }
      }

      async function finish(): Promise<void> {
        const channel = env?.settings.notifications?.channel;
        if (!env || !channel || outcome.state?.phase !== 'Succeeded' || outcome.degraded) return;
        if ((await deps.redis.getdel(failingKey(request.application))) === null) return;
        const { threadLink } = await context();
        await deps.poster.postRecovery(channel, {
          application: request.application,
          environment: env.name,
          revision: outcome.revision,
          requester: request.initiator,
          jobId,
          ...(threadLink ? { threadLink } : {}),
        });
      }
    },
  };
}
