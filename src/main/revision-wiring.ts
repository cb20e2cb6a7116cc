/**
 * startRevisionWatcher — sync on push wired in the bot process (roles `bot` and `serve`: the process with the
 * Applications, Slack and the queue's producer). The watcher is src/revisions' createRevisionWatcher; here each of
 * its ports gets its adapter:
 *
 * - refs and commits: the git repository cache (`git ls-remote`, once per repository per poll); chart versions:
 *   the Helm chart cache (index or OCI tags, nothing downloaded);
 * - last seen revisions, claims, the poll lease and the "main moved" messages' refs: Redis under the queue prefix
 *   (one connection, closed by close());
 * - "never synced": the queue's line and history and the approval store;
 * - a move: src/revisions createMoveActions — headers and messages through the Slack revision announcer, syncs
 *   through src/requests (origin `automated`) on the producer, approval requests through the approval flow,
 *   audited in the Application's audit log;
 * - `POST /api/webhook`: src/revisions' webhook handler, its secrets from the environment or wavesync.yaml
 *   `webhook:`, duplicate deliveries remembered in Redis.
 *
 * Polls every `defaults.reconciliation.timeoutSeconds` (plus up to `jitterSeconds`), one replica per interval.
 */
import { randomUUID } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import type { ApplicationsFromSettings } from '../applications/index.js';
import type { Config } from '../config.js';
import type { Application } from '../domain/index.js';
import {
  createApprovalStore,
  createAuditLog,
  driftChannelOf,
  type RequestApprovals,
} from '../environments/index.js';
import type { Logger } from '../logger.js';
import type { OpsRoute } from '../ops/ops-routes.js';
import { createRedisClient, type SyncQueueClient } from '../queue/index.js';
import {
  createMoveActions,
  createRevisionWatcher,
  createWebhookHandler,
  type RevisionNoticeRefs,
  type RevisionWatcher,
  redisDeliveryLog,
  redisRevisionLease,
  redisRevisionNoticeRefs,
  redisRevisionStore,
  WEBHOOK_PATH,
  webhookSecretsOf,
} from '../revisions/index.js';
import { resolveSettingsPath, type Settings } from '../settings/index.js';
import { createRevisionAnnouncer } from '../slack/reporters/revision-notices.js';

export interface RevisionWiringDeps {
  config: Pick<Config, 'redis' | 'queue'>;
  settings: Settings;
  apps: ApplicationsFromSettings;
  web: WebClient;
  queue: Pick<SyncQueueClient, 'enqueueSync' | 'applicationStatus' | 'history'>;
  approvals: Pick<RequestApprovals, 'requestAutomatedApproval'>;
  /** Where the webhook secrets are read (WAVESYNC_WEBHOOK_*). */
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  now?: () => Date;
}

export interface RunningRevisions {
  watcher: RevisionWatcher;
  /** `POST /api/webhook`, for the bot's HTTP port. */
  webhook: OpsRoute;
  notices: Pick<RevisionNoticeRefs, 'get'>;
  /** Start polling (after the HTTP server listens). */
  start(): void;
  close(): Promise<void>;
}

export function startRevisionWatcher(deps: RevisionWiringDeps): RunningRevisions {
  const { settings, apps, config } = deps;
  const prefix = config.queue.prefix;
  const logger = deps.logger.child({ component: 'revisions' });
  const redis = createRedisClient(config.redis, { maxRetriesPerRequest: 2 });
  redis.on('error', (err: Error) => logger.debug({ err: err.message }, 'revisions redis error'));
  const store = redisRevisionStore(redis, prefix);
  const approvalStore = createApprovalStore(redis, { prefix });
  const audit = createAuditLog(redis, prefix);
  const notices = redisRevisionNoticeRefs(redis, prefix);
  const channelOf = (app: Application) => driftChannelOf(settings, app);
  const onMove = createMoveActions({
    settings,
    channelOf,
    announcer: createRevisionAnnouncer({
      client: deps.web,
      catalog: apps.registry,
      refs: notices,
      channelOf,
      logger,
    }),
    describeCommit: (repoURL, sha, since) => apps.git.describeCommit(repoURL, sha, since),
    request: { queue: deps.queue, approvals: deps.approvals, audit: (entry) => audit.append(entry), logger },
    store,
    ...(deps.now ? { now: deps.now } : {}),
    logger,
  });
  const watcher = createRevisionWatcher({
    applications: () => apps.registry.list(),
    listRefs: (repoURL) => apps.git.listRefs(repoURL),
    chartVersion: (source) => {
      if (!apps.charts) return Promise.reject(new Error('no Helm chart cache'));
      return apps.charts.resolveVersion(source);
    },
    store,
    neverSynced: async (app) => {
      const [line, history, pending] = await Promise.all([
        deps.queue.applicationStatus(app.name),
        deps.queue.history(app.name, 1),
        approvalStore.hasPending(app.name),
      ]);
      return line.length === 0 && history.length === 0 && !pending;
    },
    onMove,
    lease: redisRevisionLease(redis, prefix, randomUUID()),
    logger,
  });
  const handler = createWebhookHandler({
    secrets: webhookSecretsOf(settings.webhook, deps.env, (file) => resolveSettingsPath(settings, file)),
    deliveries: redisDeliveryLog(redis, prefix),
    applications: () => apps.registry.list(),
    refresh: (repoURL, trigger, only) => watcher.refreshRepository(repoURL, trigger, only),
    logger,
  });
  const { timeoutSeconds, jitterSeconds } = settings.defaults.reconciliation;
  return {
    watcher,
    webhook: { path: WEBHOOK_PATH, method: ['POST'], handler },
    notices,
    start() {
      watcher.start(timeoutSeconds * 1000, jitterSeconds * 1000);
      logger.info({ timeoutSeconds, jitterSeconds }, 'revision watcher ready');
    },
    async close() {
      await watcher.stop();
      redis.disconnect();
    },
  };
}
