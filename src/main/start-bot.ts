/**
 * startBot — the Slack half of wavesync: the Bolt app (`/sync`, its Cancel button, and the Approve/Reject buttons
 * of the approval flow) over the sync queue's producer and the Applications registry, with the operator routes
 * (/healthz, /metrics, Bull Board) on the same port. Production syncs go through the approval gate. Drift detection
 * (its notices' Sync button is registered by the Slack app, one sync per notice through Redis claims under the
 * queue prefix) runs here too, when the caller passes `drift`.
 */

import { type ApplicationsFromSettings, renderedResourcesOf } from '../applications/index.js';
import type { Config } from '../config.js';
import type { DeletionPlanner } from '../deletion/index.js';
import { BotError } from '../domain/index.js';
import { type RunningDriftDetection, redisDriftNoticeClaims, redisDriftNoticeRefs } from '../drift/index.js';
import type { Logger } from '../logger.js';
import { type OpsRoute, toBoltCustomRoutes } from '../ops/ops-routes.js';
import {
  allDurable,
  createRedisClient,
  createSyncQueue,
  REPLICA_WAIT_MS,
  redisClickClaims,
  replicaDurabilityFor,
  replicatedWrites,
} from '../queue/index.js';
import type { ResourceViews } from '../resource-actions/index.js';
import { ROLLBACK_CLAIM_TTL_MS } from '../slack/actions/rollback-action.js';
import { createApprovalGate } from '../slack/approval-gate.js';
import { redisReplayStore } from '../slack/request-guard.js';
import { createSlackApp } from '../slack/slack-app.js';
import type { ApprovalWiring } from './approval-wiring.js';

export interface RunningBot {
  port: number;
  /** Drift detection, when `deps.drift` started it. */
  drift?: RunningDriftDetection;
  close(): Promise<void>;
}

export interface BotDeps {
  config: Config;
  apps: ApplicationsFromSettings;
  routes: readonly OpsRoute[];
  /** Built over `queue` by the caller (createApprovalWiring with the producer). */
  wiring: (queue: ReturnType<typeof createSyncQueue>) => ApprovalWiring;
  /** Starts drift detection over the producer (startDriftDetection); none when absent. */
  drift?: (queue: ReturnType<typeof createSyncQueue>) => RunningDriftDetection | undefined;
  logger: Logger;
  host?: string;
  /** Plans `/sync delete` from the cluster (the Application's tracked objects); omitted → deleting is unavailable. */
  deletions?: DeletionPlanner;
  /** Reads the Applications again when a command names an unknown one (RegistryRefresher.refreshIfStale). */
  refreshApplications?: () => Promise<void>;
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
  const slack = createSlackApp({
    botToken,
    signingSecret: signingSecret ?? '',
    ...(appToken ? { appToken } : {}),
    ...(apiUrl ? { apiUrl } : {}),
    port: config.port,
    ...(deps.host ? { host: deps.host } : {}),
    routes: toBoltCustomRoutes(deps.routes),
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
      rollbackClaims: redisClickClaims(redis, `${config.queue.prefix}:rollback:click`, ROLLBACK_CLAIM_TTL_MS),
    },
  });
  const stopSweeper = wiring.approvals.startExpirySweeper(15_000, (err) =>
    logger.warn({ err }, 'approval expiry failed'),
  );
  const { port } = await slack.start();
  logger.info({ mode: slack.mode, port }, 'Slack app listening');
  const drift = deps.drift?.(queue);
  return {
    port: port ?? config.port,
    ...(drift ? { drift } : {}),
    async close() {
      await drift?.close();
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
