/**
 * createSlackApp — the Bolt app: one slash command `/sync` (subcommands in ./commands), the header's Cancel
 * button and the drift notice's Sync button. HTTP mode (default): Bolt's HTTPReceiver at `POST /slack/events`
 * verifies the v0 signature and rejects stale timestamps; a guard (request-guard.ts) also rejects timestamps that
 * are not integer seconds or more than 5 minutes ahead, and any signed request seen before, and answers a malformed
 * payload 400 (slack-payloads.ts). Socket Mode when `appToken` is set: malformed envelopes and payloads are dropped
 * (acked when they can be). Extra HTTP routes (e.g. /healthz, /metrics) go in `routes` (see `httpRoute`).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  App,
  type BlockAction,
  type ButtonAction,
  type CustomRoute,
  HTTPReceiver,
  LogLevel,
  type ReceiverEvent,
  SocketModeReceiver,
} from '@slack/bolt';
import { memoryDriftNoticeClaims } from '../drift/index.js';
import { memoryClickClaims, memoryReplayStore, type ReplayStore } from '../queue/index.js';
import { registerApprovalActions } from './actions/approval-actions.js';
import { cancelAction } from './actions/cancel-action.js';
import { cancelDeletionAction, confirmDeletionAction } from './actions/delete-action.js';
import { driftSyncAction } from './actions/drift-sync-action.js';
import { durableClick } from './actions/durable-click.js';
import { promoteAction } from './actions/promote-action.js';
import { resourceActionButton, showAllResourcesButton } from './actions/resource-action-buttons.js';
import { revisionDiffAction, revisionSyncAction } from './actions/revision-actions.js';
import { rollbackAction } from './actions/rollback-action.js';
import { boltLoggerFrom } from './bolt-logger.js';
import type { SlackAppDeps } from './commands/command-context.js';
import { startCommandRecovery } from './commands/command-recovery.js';
import { RecentRequests } from './commands/recent-requests.js';
import { handleSyncCommand } from './commands/sync-command.js';
import { DELETE_CANCEL_ACTION_ID, DELETE_CONFIRM_ACTION_ID } from './messages/deletion-blocks.js';
import { DRIFT_SYNC_ACTION_ID } from './messages/drift-notice-blocks.js';
import { PROMOTE_ACTION_ID } from './messages/pipeline-blocks.js';
import { RESOURCE_ACTION_ID, RESOURCES_SHOW_ALL_ACTION_ID } from './messages/resource-tree-blocks.js';
import { REVISION_DIFF_ACTION_ID, REVISION_SYNC_ACTION_ID } from './messages/revision-notice-blocks.js';
import { ROLLBACK_ACTION_ID } from './messages/rollback-button.js';
import { CANCEL_ACTION_ID } from './messages/sync-header-blocks.js';
import { guardSlackRequests } from './request-guard.js';
import {
  MalformedSlackPayload,
  type PayloadRules,
  slackPayloadChecker,
  socketEnvelopeProblem,
} from './slack-payloads.js';

const EVENTS_PATH = '/slack/events';

export interface SlackAppOptions {
  botToken: string;
  /** Required in HTTP mode; unused in Socket Mode. */
  signingSecret: string;
  /** App-level token (`xapp-…`): switches to Socket Mode. */
  appToken?: string;
  /** Web API base URL (SLACK_API_URL); default Slack's. */
  apiUrl?: string;
  /** HTTP port (default 3000; 0 = ephemeral). In Socket Mode it serves only `routes`. */
  port?: number;
  /** Interface to bind in HTTP mode; default all. Tests pass `127.0.0.1`. */
  host?: string;
  /** Retries of failed Web API requests; default 2; tests pass 0. */
  clientRetries?: number;
  /** Extra HTTP routes served next to /slack/events. */
  routes?: CustomRoute[];
  /** The slash command's name; default `/sync`. */
  command?: string;
  /**
   * Where signed requests are remembered against replays (HTTP mode): `redisReplayStore` so every replica
   * refuses a replay; default this process only.
   */
  replays?: ReplayStore;
  /** Clock in epoch ms for the request checks (default Date.now); tests move it instead of sleeping. */
  now?: () => number;
  deps: SlackAppDeps;
  /** ms between sweeps of the command journal for commands a dead bot acknowledged (default 5000). */
  commandRecoveryMs?: number;
}

export interface SlackApp {
  readonly app: App;
  readonly mode: 'http' | 'socket';
  /** Start listening; resolves with the bound HTTP port (undefined in Socket Mode without routes). */
  start(): Promise<{ port: number | undefined }>;
  stop(): Promise<void>;
}

/** A route for `routes`: async handlers are awaited and failures become HTTP 500. */
export function httpRoute(
  method: string,
  path: string,
  handler: CustomRoute['handler'] | ((...a: Parameters<CustomRoute['handler']>) => Promise<void>),
): CustomRoute {
  return {
    method,
    path,
    handler: (req, res) => {
      Promise.resolve(handler(req, res)).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    },
  };
}

export function createSlackApp(options: SlackAppOptions): SlackApp {
  const { deps } = options;
  const logger = deps.logger ? boltLoggerFrom(deps.logger) : undefined;
  const logOptions = logger ? { logger } : { logLevel: LogLevel.ERROR };
  const port = options.port ?? 3000;
  const routes = options.routes ?? [];
  const socket = options.appToken !== undefined && options.appToken !== '';
  // What the bot handles, checked at the edge (slack-payloads.ts); the action ids are filled in as listeners register.
  const actionIds: string[] = [];
  const rules: PayloadRules = { command: options.command ?? '/sync', actionIds };
  const checkPayload = slackPayloadChecker(rules);
  const receiver = socket
    ? new SocketModeReceiver({
        appToken: options.appToken!,
        customRoutes: routes,
        // The Socket Mode client opens its link with apps.connections.open on this Web API (SLACK_API_URL too).
        installerOptions: { port, clientOptions: options.apiUrl ? { slackApiUrl: options.apiUrl } : {} },
        // A malformed payload is acked (Slack must not send it again) and dropped.
        processEventErrorHandler: async ({ error }) => {
          if (!(error instanceof MalformedSlackPayload)) return false;
          deps.logger?.warn(
            { problem: error.message },
            'dropped a malformed Socket Mode payload; nothing was done',
          );
          return true;
        },
        ...logOptions,
      })
    : new HTTPReceiver({
        signingSecret: options.signingSecret,
        endpoints: [EVENTS_PATH],
        customRoutes: routes,
        port,
        ...logOptions,
      });
  if (receiver instanceof SocketModeReceiver) guardSocketEnvelopes(receiver, deps.logger);
  if (receiver instanceof HTTPReceiver) {
    guardSlackRequests(receiver, EVENTS_PATH, {
      signingSecret: options.signingSecret,
      replays: options.replays ?? memoryReplayStore(options.now),
      checkPayload: (body) => {
        const checked = checkPayload(body);
        return checked.ok ? undefined : checked.problem;
      },
      ...(options.now ? { now: options.now } : {}),
      onReject: (reason, detail) => deps.logger?.warn({ ...detail }, `rejected a Slack request: ${reason}`),
    });
  }
  const app = new App({
    token: options.botToken,
    receiver,
    ...logOptions,
    clientOptions: {
      ...(options.apiUrl ? { slackApiUrl: options.apiUrl } : {}),
      retryConfig: { retries: options.clientRetries ?? 2 },
    },
  });
  const recent = new RecentRequests();
  actionIds.push(...registerListeners(app, rules.command, deps, recent));
  if (socket) checkSocketPayloads(app, checkPayload);
  let stopRecovery: (() => Promise<void>) | undefined;
  return {
    app,
    mode: socket ? 'socket' : 'http',
    async start() {
      const server = (await (socket || !options.host
        ? app.start(port)
        : app.start({ port, host: options.host }))) as unknown;
      // Acknowledged commands a dead bot did not queue (journal leases lapsed) are finished here.
      stopRecovery = startCommandRecovery({
        client: app.client,
        deps,
        recent,
        ...(options.commandRecoveryMs ? { intervalMs: options.commandRecoveryMs } : {}),
      });
      const address = isServer(server) ? server.address() : null;
      return { port: address && typeof address === 'object' ? (address as AddressInfo).port : undefined };
    },
    async stop() {
      await stopRecovery?.();
      await app.stop();
    },
  };
}

/**
 * Socket Mode: every envelope's payload is checked before any listener sees it (slack-payloads.ts; over HTTP the
 * request guard checks the body); the checked value is what the listeners receive. A malformed one throws
 * MalformedSlackPayload, which the receiver's error handler above acks and drops.
 */
function checkSocketPayloads(app: App, checkPayload: ReturnType<typeof slackPayloadChecker>): void {
  const processEvent = app.processEvent.bind(app);
  app.processEvent = async (event: ReceiverEvent) => {
    const checked = checkPayload(event.body);
    if (!checked.ok) throw new MalformedSlackPayload(checked.problem);
    return processEvent({ ...event, body: checked.payload });
  };
}

/**
 * A Socket Mode message that is not a well-formed envelope is dropped (logged) before the Socket Mode client reads
 * it: the client would throw on an `events_api` envelope without `payload.event`, outside any handler.
 */
function guardSocketEnvelopes(receiver: SocketModeReceiver, logger: SlackAppDeps['logger']): void {
  const client = receiver.client;
  const listeners = client.listeners('ws_message') as ((data: unknown, isBinary: boolean) => unknown)[];
  client.removeAllListeners('ws_message');
  client.on('ws_message', (data: unknown, isBinary: boolean) => {
    const text = typeof data === 'string' ? data : Buffer.isBuffer(data) ? data.toString('utf8') : undefined;
    const problem = isBinary || text === undefined ? 'binary message' : socketEnvelopeProblem(text);
    if (problem !== undefined) {
      logger?.warn({ problem }, 'dropped a malformed Socket Mode message; nothing was done');
      return;
    }
    for (const listener of listeners) listener(data, isBinary);
  });
}

/** Registers the command and the buttons' listeners; returns the action ids of the buttons it listens to. */
function registerListeners(app: App, command: string, deps: SlackAppDeps, recent: RecentRequests): string[] {
  const actionIds: string[] = [];
  const driftClaims = deps.driftClaims ?? memoryDriftNoticeClaims();
  const rollbackClaims = deps.rollbackClaims ?? memoryClickClaims();
  app.command(command, async ({ command: cmd, ack, respond, client, context }) => {
    await handleSyncCommand({ command: cmd, ack, respond, client, deps, recent, retryNum: context.retryNum });
  });
  // Every button goes through durableClick: nothing is shown as done before it is on the Redis replicas.
  const click = (actionId: string, handler: Parameters<typeof durableClick>[1]) => {
    actionIds.push(actionId);
    app.action<BlockAction<ButtonAction>>(
      { type: 'block_actions', action_id: actionId },
      durableClick({ ...(deps.durable ? { durable: deps.durable } : {}) }, handler),
    );
  };
  click(CANCEL_ACTION_ID, (args) => cancelAction({ ...args, deps }));
  click(DRIFT_SYNC_ACTION_ID, (args) => driftSyncAction({ ...args, deps, recent, claims: driftClaims }));
  const revisionClaims = deps.revisionClaims ?? memoryClickClaims();
  click(REVISION_SYNC_ACTION_ID, (args) =>
    revisionSyncAction({ ...args, deps, recent, claims: revisionClaims, notices: deps.revisionNotices }),
  );
  click(REVISION_DIFF_ACTION_ID, (args) => revisionDiffAction({ ...args, deps, recent }));
  click(ROLLBACK_ACTION_ID, (args) => rollbackAction({ ...args, deps, recent, claims: rollbackClaims }));
  click(DELETE_CONFIRM_ACTION_ID, (args) => confirmDeletionAction({ ...args, deps, recent }));
  click(DELETE_CANCEL_ACTION_ID, (args) => cancelDeletionAction({ ...args, deps, recent }));
  click(PROMOTE_ACTION_ID, (args) => promoteAction({ ...args, deps, recent }));
  click(RESOURCE_ACTION_ID, (args) => resourceActionButton({ ...args, deps }));
  click(RESOURCES_SHOW_ALL_ACTION_ID, (args) => showAllResourcesButton({ ...args, deps }));
  if (deps.approvalFlow) {
    actionIds.push(
      ...registerApprovalActions(app, {
        approvals: deps.approvalFlow,
        ...(deps.durable ? { durable: deps.durable } : {}),
        onError: (err) => deps.logger?.warn({ err }, 'approval click not handled'),
        ...(deps.logger ? { logger: deps.logger } : {}),
      }),
    );
  }
  app.error(async (error) => {
    deps.logger?.error({ err: error }, 'unhandled error in a Slack listener');
  });
  return actionIds;
}

function isServer(value: unknown): value is Server {
  return typeof value === 'object' && value !== null && 'address' in value;
}
