/**
 * startBot — the Slack half of wavesync: the Bolt app (`/sync`, its Cancel button, and the Approve/Reject buttons
 * of the approval flow) over the sync queue's producer and the Applications registry, with the operator routes
 * (/healthz, /metrics, Bull Board) on the same port. Production syncs go through the approval gate. Drift detection
 * (its notices' Sync button is registered by the Slack app, one sync per notice through Redis claims under the
 * queue prefix) runs here too, when the caller passes `drift`.
 */

import type { WebClient } from '@slack/web-api';
import { type ApplicationsFromSettings, renderedResourcesOf } from '../applications/index.js';
import { redisRemovalAnnouncements, watchRemovedApplications } from '../appset-removal/index.js';
import type { Config } from '../config.js';
import type { DeletionPlanner } from '../deletion/index.js';
import { BotError } from '../domain/index.js';
import { type RunningDriftDetection, redisDriftNoticeClaims, redisDriftNoticeRefs } from '../drift/index.js';
import { environmentFor } from '../environments/index.js';
import type { Logger } from '../logger.js';
import { type OpsRoute, toBoltCustomRoutes } from '../ops/ops-routes.js';
import { redisPromotionStore } from '../promotion/index.js';
import {
  allDurable,
  createRedisClient,
  createSyncQueue,
  REPLICA_WAIT_MS,
  redisReplayStore,
  replicaDurabilityFor,
  replicatedWrites,
} from '../queue/index.js';
import type { ResourceViews } from '../resource-actions/index.js';
import { redisRevisionNoticeClaims } from '../revisions/index.js';
import { redisRollbackClaims } from '../rollback/index.js';
import type { Settings } from '../settings/index.js';
import { createApprovalGate } from '../slack/approval-gate.js';
import { createSlackApp } from '../slack/slack-app.js';
import { createSlackWebClient } from '../slack/slack-web-client.js';
import { ChannelPacer, createSharedChannelPacer } from '../thread/index.js';
import type { ApprovalWiring } from './approval-wiring.js';
import { stageObserver, startPromotionVerifier } from './promotion-wiring.js';
import type { RunningRevisions } from './revision-wiring.js';
import { createRolloutWiring } from './rollout-wiring.js';

export interface RunningBot {
  port: number;
  /** Drift detection, when `deps.drift` started it. */
  drift?: RunningDriftDetection;
  /** The revision watcher, when `deps.revisions` started it. */
  revisions?: RunningRevisions;
  close(): Promise<void>;
}

export interface BotDeps {
  config: Config;
  apps: ApplicationsFromSettings;
  routes: readonly OpsRoute[];
  /** Built over `queue` by the caller (createApprovalWiring with the producer). */
  wiring: (queue: ReturnType<typeof createSyncQueue>) => ApprovalWiring;
  /**
   * Starts the revision watcher over the producer and the approval flow (startRevisionWatcher): polls, the
   * "main moved" buttons' refs, and `POST /api/webhook` on this port; none when absent.
   */
  revisions?: (
    queue: ReturnType<typeof createSyncQueue>,
    wiring: ApprovalWiring,
  ) => RunningRevisions | undefined;
  /** Starts drift detection over the producer (startDriftDetection); none when absent. */
  drift?: (queue: ReturnType<typeof createSyncQueue>) => RunningDriftDetection | undefined;
  logger: Logger;
  host?: string;
  /** Plans `/sync delete` from the cluster (the Application's tracked objects); omitted → deleting is unavailable. */
  deletions?: DeletionPlanner;
  /** Reads the Applications again when a command names an unknown one (RegistryRefresher.refreshIfStale). */
  refreshApplications?: () => Promise<void>;
  /** The Web API client a rollout's first step posts its lines with (`/sync <appset>`); without it, none. */
  web?: WebClient;
  /**
   * wavesync.yaml: where a generated Application that is no longer generated is announced; with
   * `promotion.pipelines`, `/sync promote` and `/sync pipeline` work and stages are verified.
   */
  settings?: Settings;
  /** `/sync resources` and resource actions; omitted → unavailable. */
  resourceViews?: ResourceViews;
}

/** Start the bot. @throws BotError('invalid_config') without SLACK_BOT_TOKEN, or SLACK_SIGNING_SECRET in HTTP mode. */
export async function startBot(deps: BotDeps): Promise<RunningBot> {
  const { config } = deps;
  const { botToken, signingSecret, appToken, apiUrl } = config.slack;
  if (!botToken)
    throw new BotError(
      'invalid_config',
      'SLACK_BOT_TOKEN is not set (README "Connect to your Slack workspace")',
    );
  if (!appToken && !signingSecret) {
    throw new BotError(
      'invalid_config',
      'SLACK_SIGNING_SECRET is not set (or set SLACK_APP_TOKEN for Socket Mode)',
    );
  }
  const logger = deps.logger.child({ component: 'bot' });
  const queue = createSyncQueue({
    connection: config.redis,
    prefix: config.queue.prefix,
    attempts: config.queue.attempts,
    backoffMs: config.queue.backoffMs,
    logger,
  });
  const wiring = deps.wiring(queue);
  // The drift notices' Sync-button claims (one sync per notice across replicas) and the replay guard's memory.
  const redis = createRedisClient(config.redis, { maxRetriesPerRequest: 2 });
  redis.on('error', (err: Error) => logger.debug({ err: err.message }, 'bot redis error'));
  const gate = createApprovalGate(wiring.approvals, wiring.messenger);
  // `/sync <appset>`: the rollout starts here (its first step); the worker's hooks continue it.
  const rollout = createRolloutWiring({
    queue,
    redis,
    prefix: config.queue.prefix,
    registry: deps.apps.registry,
    approvals: wiring.approvals,
    ...(deps.web ? { web: deps.web } : {}),
    pacer: new ChannelPacer(),
    logger,
  });
  // A rollout's Application whose approval is rejected, expires or is withdrawn: that rollout stops at once.
  wiring.onRequestClosed((record) => rollout.approvalClosed(record));
  // A generated Application no longer generated: announced once, its resources deleted where Argo CD's policy would.
  const web = deps.web;
  if (web && deps.settings) {
    watchRemovedApplications({
      registry: deps.apps.registry,
      settings: deps.settings,
      announcements: redisRemovalAnnouncements(redis, config.queue.prefix),
      say: async (channel, text) => {
        await web.chat.postMessage({ channel, text });
      },
      queue,
      ...(deps.deletions ? { deletions: deps.deletions } : {}),
      logger,
    });
  }
  const revisions = deps.revisions?.(queue, wiring);
  const settings = deps.settings;
  const promotionStore = redisPromotionStore(redis, config.queue.prefix);
  const slack = createSlackApp({
    botToken,
    signingSecret: signingSecret ?? '',
    ...(appToken ? { appToken } : {}),
    ...(apiUrl ? { apiUrl } : {}),
    port: config.port,
    ...(deps.host ? { host: deps.host } : {}),
    routes: toBoltCustomRoutes(revisions ? [...deps.routes, revisions.webhook] : deps.routes),
    // Every replica refuses a signed request another one already took (for the whole signature window).
    replays: redisReplayStore(redis, config.queue.prefix),
    deps: {
      queue,
      // `/sync <app>` is written here before the ack; this bot also finishes what a dead replica acknowledged.
      journal: queue.commands,
      catalog: {
        names: () => deps.apps.registry.names(),
        describe: (name) => deps.apps.registry.describe(name),
        resourcesOf: (name, revision) => renderedResourcesOf(deps.apps, name, revision),
        ...(deps.refreshApplications ? { refresh: deps.refreshApplications } : {}),
      },
      logger,
      approvals: gate,
      // Registers the Approve/Reject listeners and `/sync audit` (one registration: no second decide per click).
      approvalFlow: wiring.approvals,
      ...(deps.deletions ? { deletions: deps.deletions } : {}),
      ...(deps.resourceViews ? { resourceViews: deps.resourceViews, actionAudit: wiring.audit } : {}),
      driftClaims: redisDriftNoticeClaims(redis, config.queue.prefix),
      driftNotices: redisDriftNoticeRefs(redis, config.queue.prefix),
      // A click is shown as done only once every connection that wrote for it is on the replicas (Sentinel).
      durable: allDurable([
        queue.durable,
        wiring.durable,
        replicatedWrites([redis], replicaDurabilityFor(config.redis, REPLICA_WAIT_MS)),
      ]),
      rollouts: rollout.starter,
      rollbackClaims: redisRollbackClaims(redis, config.queue.prefix),
      ...(revisions ? { revisionNotices: revisions.notices } : {}),
      revisionClaims: redisRevisionNoticeClaims(redis, config.queue.prefix),
      // Sync headers wait for the channel's slot shared with every worker and bot (headers first), and honour
      // Retry-After: a burst of commands is delayed by Slack's pace, never refused by it.
      headerDelivery: {
        client: createSlackWebClient({ botToken, ...(apiUrl ? { apiUrl } : {}), retries: 0 }),
        pacer: createSharedChannelPacer({
          redis,
          prefix: config.queue.prefix,
          onError: (err: unknown) =>
            logger.debug({ err }, 'shared channel pacing unavailable; paced per process'),
        }),
        logger,
      },
      ...(settings
        ? {
            promotion: {
              settings,
              store: promotionStore,
              inEnvironment: (name: string) => inEnvironment(settings, deps.apps, name),
              observe: stageObserver({ config, settings, apps: deps.apps }),
            },
          }
        : {}),
    },
  });
  const stopSweeper = wiring.approvals.startExpirySweeper(15_000, (err) =>
    logger.warn({ err }, 'approval expiry failed'),
  );
  const { port } = await slack.start();
  logger.info({ mode: slack.mode, port }, 'Slack app listening');
  const drift = deps.drift?.(queue);
  revisions?.start();
  const verifier =
    settings &&
    startPromotionVerifier({ config, settings, apps: deps.apps, redis, store: promotionStore, logger });
  return {
    port: port ?? config.port,
    ...(drift ? { drift } : {}),
    ...(revisions ? { revisions } : {}),
    async close() {
      await revisions?.close();
      await drift?.close();
      await verifier?.close();
      stopSweeper();
      await slack
        .stop()
        .catch((error: unknown) => logger.warn({ err: error }, 'Slack app did not stop cleanly'));
      await wiring.close();
      await queue.close();
      redis.disconnect();
    },
  };
}

/** Whether Application `name` is in an environment of `settings` (where break-glass and the audit log are). */
function inEnvironment(settings: Settings, apps: ApplicationsFromSettings, name: string): boolean {
  const app = apps.registry.find(name);
  try {
    return app !== undefined && environmentFor(settings, app) !== undefined;
  } catch {
    return false;
  }
}
