/**
 * createApprovalWiring — the approval flow and failure notifications built from wavesync.yaml `environments:`,
 * on Redis (the same key prefix as the queue, so one prefix holds an installation's state) and the Slack Web API:
 * the gate `/sync` calls before enqueueing, the Approve/Reject decisions, the expiry sweeper, and the per-job
 * failure-notification reporter the worker fans out next to the Slack thread.
 */
import type { WebClient } from '@slack/web-api';
import type { ApplicationsFromSettings } from '../applications/index.js';
import type { Application } from '../domain/index.js';
import type { Cluster } from '../engine/index.js';
import {
  type ApprovalRecord,
  type Approvals,
  type AuditLog,
  createFailureNotifier,
  type FailureNotifier,
  redisNotificationMarks,
  type SyncPreviewer,
} from '../environments/index.js';
import { createClusterProvider } from '../kube/cluster-provider.js';
import { createKubeCluster } from '../kube/kube-cluster.js';
import type { Logger } from '../logger.js';
import {
  createRedisClient,
  type DurableWrites,
  type EnqueueResult,
  REPLICA_WAIT_MS,
  type RedisConnectionOptions,
  replicaDurabilityFor,
  type SyncRequest,
} from '../queue/index.js';
import { createApprovalServices } from '../requests/index.js';
import type { ResourceViews } from '../resource-actions/index.js';
import type { Settings } from '../settings/index.js';
import {
  createSlackApprovalMessenger,
  type SlackApprovalMessenger,
  slackGroupMembers,
} from '../slack/reporters/slack-approval-messenger.js';
import { createSharedChannelPacer } from '../thread/index.js';

export interface ApprovalWiring {
  approvals: Approvals;
  notifier: FailureNotifier;
  messenger: SlackApprovalMessenger;
  /** The approval flow's writes on the Redis replicas (Sentinel: WAIT for one): what a click confirms. */
  durable: DurableWrites;
  /** The audit log the approval flow writes (resource actions write theirs there too). */
  audit: AuditLog;
  /**
   * Who is told when a request closes without approval (rejected, expired, withdrawn, invalidated): the bot's
   * rollout wiring, created after this one (an ApplicationSet's rollout stops there). One listener; the last set wins.
   */
  onRequestClosed(listener: (record: ApprovalRecord) => Promise<void>): void;
  close(): Promise<void>;
}

export interface ApprovalWiringDeps {
  /** Where Redis is (Config.redis). */
  redis: RedisConnectionOptions;
  prefix: string;
  settings: Settings;
  apps: ApplicationsFromSettings;
  web: WebClient;
  /** The producer (bot side); the worker side passes none and only uses the notifier. */
  queue?: { enqueueSync(req: SyncRequest): Promise<EnqueueResult>; readonly durable?: DurableWrites };
  logger: Logger;
  /**
   * KUBECONFIG from the environment: the approval preview reads each Application's destination cluster (the same
   * `clusters:` mapping as the worker) for the live diff on the approval message, View diff and `/sync diff`.
   */
  kubeconfig: string | undefined;
  /** The cluster of an Application (the process's live-state caches); default the cluster from `kubeconfig`. */
  clusterFor?(app: Application): Cluster;
  /**
   * Where previews (plan, live diff: `/sync diff`, `--dry-run`, approval messages, View diff) are computed; default
   * on this thread over `apps.renderer` and `clusterFor`. Serve gives its worker thread's (start-wavesync.ts).
   */
  preview?: SyncPreviewer;
  /**
   * Runs approved resource actions, and reads a Degraded workload's failing Pod's log for its notice (ResourceViews
   * over the `clusters:` mapping); without it neither happens.
   */
  resourceViews?: Pick<ResourceViews, 'run' | 'failingPodLog'>;
  /** Resolves App of Apps children (not in the registry) for failure notices; optional. */
  applicationOfRequest?(request: SyncRequest): Application | undefined;
}

export function createApprovalWiring(deps: ApprovalWiringDeps): ApprovalWiring {
  const redis = createRedisClient(deps.redis, { maxRetriesPerRequest: 2 });
  redis.on('error', (err: Error) => deps.logger.debug({ err: err.message }, 'approvals redis error'));
  // Notices are paced per channel across every process (Slack: about one post per second per channel).
  const pacer = createSharedChannelPacer({
    redis,
    prefix: deps.prefix,
    onError: (err: unknown) =>
      deps.logger.debug({ err }, 'shared channel pacing unavailable; paced per process'),
  });
  const messenger = createSlackApprovalMessenger(deps.web, pacer);
  const findApplication = (name: string) => deps.apps.registry.find(name);
  const onError = (error: unknown) => deps.logger.warn({ err: error }, 'approval flow error');
  let closedListener: ((record: ApprovalRecord) => Promise<void>) | undefined;
  const { approvals, store, audit, durable } = createApprovalServices({
    redis,
    prefix: deps.prefix,
    settings: deps.settings,
    findApplication,
    renderer: deps.apps.renderer,
    ...(deps.preview ? { preview: deps.preview } : {}),
    cluster:
      deps.clusterFor ??
      createClusterProvider({
        settings: deps.settings,
        kubeconfig: deps.kubeconfig,
        createCluster: createKubeCluster,
      }),
    queue: deps.queue ?? {
      enqueueSync: () => Promise.reject(new Error('this process does not enqueue (worker)')),
    },
    messenger,
    listGroupMembers: slackGroupMembers(deps.web),
    ...(deps.resourceViews ? { runResourceAction: deps.resourceViews.run } : {}),
    durability: replicaDurabilityFor(deps.redis, REPLICA_WAIT_MS),
    onClosed: async (record) => closedListener?.(record),
    onDeliveryError: onError,
  });
  const notifier = createFailureNotifier({
    marks: redisNotificationMarks(redis, deps.prefix),
    settings: deps.settings,
    findApplication,
    ...(deps.applicationOfRequest ? { applicationOfRequest: deps.applicationOfRequest } : {}),
    store,
    audit,
    poster: messenger,
    onError,
    ...(deps.resourceViews ? { degradedLogTail: degradedLogTailOf(deps.resourceViews) } : {}),
  });
  return {
    approvals,
    notifier,
    messenger,
    durable,
    audit,
    onRequestClosed(listener) {
      closedListener = listener;
    },
    async close() {
      redis.disconnect();
    },
  };
}

/** How many of the failing Pod's last lines a Degraded notice shows (as a failed hook's: EngineOptions.logTailLines). */
const DEGRADED_LOG_TAIL_LINES = 50;

/** FailureNotifierDeps.degradedLogTail over ResourceViews.failingPodLog. */
export function degradedLogTailOf(
  views: Pick<ResourceViews, 'failingPodLog'>,
): (application: string, workload: string) => Promise<{ source: string; lines: string[] } | undefined> {
  return async (application, workload) => {
    const log = await views.failingPodLog(application, workload, DEGRADED_LOG_TAIL_LINES);
    if (!log) return undefined;
    const instance = log.previous ? ', previous instance' : '';
    return {
      source: `${log.pod} (container ${log.container}${instance}${log.why ? `; ${log.why}` : ''})`,
      lines: log.lines,
    };
  };
}
