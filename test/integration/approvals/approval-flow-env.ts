/**
 * The approval flow end to end over HTTP: the bot's Slack app (createSlackApp: Bolt's HTTPReceiver verifies the v0
 * signature of every request the SignedSlackClient sends; `/sync` posts the header and calls the approval gate;
 * the Approve/Reject listeners and `/sync audit` come from `approvalFlow`), the fake Slack Web API, the real queue and
 * worker on Redis (the recording runner; the Slack reporter and the failure notifier fanned out), and the real
 * renderer on a private copy of the guestbook fixture (so tests can change what would be synced).
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { createApplicationRenderer } from '../../../src/applications/render/render-application.js';
import type { Application } from '../../../src/domain/application.js';
import { redisDriftNoticeRefs } from '../../../src/drift/index.js';
import type { Cluster } from '../../../src/engine/index.js';
import {
  APPROVE_ACTION_ID,
  type ApprovalStore,
  type Approvals,
  createFailureNotifier,
  type FailureNotifier,
  redisNotificationMarks,
} from '../../../src/environments/index.js';
import type { Logger } from '../../../src/logger.js';
import {
  allDurable,
  createSyncQueue,
  createSyncWorker,
  REPLICA_WAIT_MS,
  type RedisConnectionOptions,
  replicaDurabilityFor,
  type SyncQueue,
  type SyncRunner,
  type SyncWorker,
} from '../../../src/queue/index.js';
import { fanOutReporter } from '../../../src/queue/sync-reporter.js';
import { createApprovalServices } from '../../../src/requests/index.js';
import type { ResourceViews } from '../../../src/resource-actions/index.js';
import type { Settings } from '../../../src/settings/index.js';
import { parseSettings } from '../../../src/settings/index.js';
import { createApprovalGate } from '../../../src/slack/approval-gate.js';
import type { ApplicationCatalog } from '../../../src/slack/ports.js';
import {
  createSlackApprovalMessenger,
  slackGroupMembers,
} from '../../../src/slack/reporters/slack-approval-messenger.js';
import { createSlackReporter } from '../../../src/slack/reporters/slack-reporter.js';
import { createSlackApp } from '../../../src/slack/slack-app.js';
import { createSlackWebClient } from '../../../src/slack/slack-web-client.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { SignedSlackClient } from '../../fakes/slack-client.js';
import { sharedFixturesDir } from '../../support/shared-fixtures.js';
import { deleteKeys, REDIS_URL, uniquePrefix, waitFor } from '../support/queue-test-env.js';
import { createRecordingRunner } from '../support/recording-runner.js';

const SECRET = 'test-signing-secret';
export const DEPLOYS = 'C0DEPLOYS';
export const ALERTS = 'C0ALERTS';
const DAY_MS = 86_400_000;

/**
 * 10:00 UTC on the Wednesday of the week (Monday to Sunday, UTC) that holds `ms`: outside the Friday-evening
 * freeze of SETTINGS. The flow's fake clock starts from a Wednesday of the real week, not a fixed calendar date:
 * Redis expires keys by its own clock, so the test must pass on any date (a fixed date stopped working a week
 * after it was written).
 */
export function wednesdayOf(ms: number): number {
  const midnight = Math.floor(ms / DAY_MS) * DAY_MS;
  const sinceMonday = (new Date(midnight).getUTCDay() + 6) % 7;
  return midnight - sinceMonday * DAY_MS + 2 * DAY_MS + 10 * 3_600_000;
}

/** The fake clock's start: a Wednesday of this week. */
export const WEDNESDAY = wednesdayOf(Date.now());
/** Noon on the Saturday after WEDNESDAY: inside the weekend freeze ("0 18 * * 5" for 3780 minutes). */
export const SATURDAY = WEDNESDAY + 3 * DAY_MS + 2 * 3_600_000;
/** When that freeze ends: 09:00 UTC on the Monday after SATURDAY. */
export const FREEZE_ENDS = WEDNESDAY + 5 * DAY_MS - 3_600_000;

export const SETTINGS = [
  'environments:',
  '  production:',
  '    requireApproval: true',
  '    approvers: { users: [U0SAM, U0PAT], groups: [S0SRE] }',
  '    channels: [C0DEPLOYS]',
  '    allowedRevisions: [main, "v*"]',
  '    freezeWindows: [{ name: weekend, cron: "0 18 * * 5", durationMinutes: 3780 }]',
  '    notifications: { channel: C0ALERTS, mention: [S0ONCALL] }',
  '  dual:',
  '    requireApproval: true',
  '    approvers: { users: [U0SAM, U0KIM, U0LEE] }',
  '    requiredApprovals: 2',
].join('\n');

export interface FlowEnv {
  slack: FakeSlackApi;
  bot: SignedSlackClient;
  approvals: Approvals;
  /** The approval store under the flow (tests use it to stop "between" two steps, as a crash would). */
  store: ApprovalStore;
  notifier: FailureNotifier;
  queue: SyncQueue;
  redis: Redis;
  prefix: string;
  appDir: string;
  clock: { now: number };
  /** Set to make the next sync fail on its merits (a failed hook). */
  failNext: { value: boolean };
  /** Set to make the next run throw this error outside the engine (the runner crashes; nothing reported). */
  throwNext: { value: Error | undefined };
  /**
   * `/sync <text>` by `userId` (default @pat) in #deploys; resolves with the approval message once it shows its
   * buttons: its ts and the Approve button's value.
   */
  requestApproval(text: string, userId?: string): Promise<PostedApproval>;
  close(): Promise<void>;
}

/** An approval message as posted: its ts and the Approve button's value. */
export interface PostedApproval {
  ts: string;
  value: string;
}

type BlockJson = { type: string; elements?: { value?: string; action_id?: string }[] };

/** The buttons of a message's actions block. */
export function buttonsOf(slack: FakeSlackApi, channel: string, ts: string): BlockJson['elements'] {
  const message = slack.message(channel, ts);
  return (message?.blocks as BlockJson[] | undefined)?.find((b) => b.type === 'actions')?.elements ?? [];
}

/** The recording runner, failing the next run when asked (its `test.fail` switch), or throwing `throwNext`. */
function failingOnDemand(
  runner: SyncRunner,
  failNext: { value: boolean },
  throwNext: { value: Error | undefined },
): SyncRunner {
  return async (ctx) => {
    const error = throwNext.value;
    if (error) {
      throwNext.value = undefined;
      throw error;
    }
    const { request } = ctx;
    if (!failNext.value || request.deletion) return runner(ctx);
    failNext.value = false;
    return runner({
      ...ctx,
      request: { ...request, operation: { ...request.operation, syncOptions: ['test.fail'] } },
    });
  };
}

function catalogOf(apps: ReadonlyMap<string, Application>): ApplicationCatalog {
  return {
    names: () => [...apps.keys()],
    describe: (name) => {
      const app = apps.get(name);
      return (
        app && {
          name,
          environment: app.labels['wavesync.io/environment'],
          destination: app.destination,
          source: app.source,
        }
      );
    },
  };
}

function application(
  name: string,
  environment: string,
  appDir: string,
  spec: Record<string, unknown> = {},
): Application {
  return {
    name,
    namespace: 'argocd',
    project: 'default',
    source: { repoURL: '', path: path.relative(path.dirname(appDir), appDir), targetRevision: 'main' },
    destination: { server: 'https://kubernetes.default.svc', namespace: name },
    finalizers: [],
    labels: { 'wavesync.io/environment': environment },
    annotations: {},
    manifest: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name }, spec },
    origin: `${name}.yaml:1`,
  };
}

export interface FlowEnvOptions {
  /** How long the recording runner's one step takes (ms, abortable; default 5): long keeps a sync running. */
  stepMs?: number;
  /** wavesync.yaml text (default SETTINGS). */
  settings?: string;
  /** The destination cluster of every Application: with it the approval shows the live diff. */
  cluster?: Cluster;
  /** Extra `spec` of the guestbook Application manifest (e.g. ignoreDifferences). */
  guestbookSpec?: Record<string, unknown>;
  /** The bot's logger (Bolt's and the Slack app's logs). */
  logger?: Logger;
  /**
   * Where the queue and worker connect (default the shared Redis); on Sentinel the flow waits for a replica
   * before Slack shows a request or a decision, as the bot does (`replicaDurabilityFor`).
   */
  connection?: RedisConnectionOptions;
  /** Where the flow's fake clock starts (ms; default WEDNESDAY, in the real week). */
  startAt?: number;
  /** `/sync resources`, `/sync action` and approved resource actions run on these (src/resource-actions). */
  resourceViews?: ResourceViews;
}

export async function startFlowEnv(redis: Redis, options: FlowEnvOptions = {}): Promise<FlowEnv> {
  const prefix = uniquePrefix();
  const root = await mkdtemp(path.join(tmpdir(), 'wavesync-approvals-'));
  const appDir = path.join(root, 'guestbook');
  await cp(sharedFixturesDir('argocd-example-apps', 'guestbook'), appDir, { recursive: true });
  const settings: Settings = parseSettings(options.settings ?? SETTINGS, path.join(root, 'wavesync.yaml'));
  const apps = new Map([
    ['guestbook', application('guestbook', 'production', appDir, options.guestbookSpec)],
    ['payments', application('payments', 'dual', appDir)],
  ]);
  const slack = await FakeSlackApi.start({
    postIntervalMs: 1,
    burst: 1000,
    usergroups: { S0SRE: ['U0LEE'] },
  });
  const web = createSlackWebClient({ botToken: slack.botToken, apiUrl: slack.apiUrl, retries: 0 });
  const messenger = createSlackApprovalMessenger(web);
  const clock = { now: options.startAt ?? WEDNESDAY };
  const failNext = { value: false };
  const throwNext: { value: Error | undefined } = { value: undefined };
  const connection = options.connection ?? { url: REDIS_URL };
  const queue = createSyncQueue({ connection, prefix });
  const { approvals, store, audit, durable } = createApprovalServices({
    redis,
    prefix,
    settings,
    findApplication: (name) => apps.get(name),
    renderer: createApplicationRenderer({ baseDir: root }),
    ...(options.cluster ? { cluster: () => options.cluster! } : {}),
    queue,
    messenger,
    listGroupMembers: slackGroupMembers(web),
    now: () => clock.now,
    durability: replicaDurabilityFor(connection, REPLICA_WAIT_MS),
    ...(options.resourceViews ? { runResourceAction: options.resourceViews.run } : {}),
  });
  const notifier = createFailureNotifier({
    marks: redisNotificationMarks(redis, prefix),
    settings,
    findApplication: (n) => apps.get(n),
    store,
    audit,
    poster: messenger,
  });
  const worker: SyncWorker = createSyncWorker({
    connection,
    prefix,
    runner: failingOnDemand(
      createRecordingRunner({ redis, base: prefix, steps: 1, stepMs: options.stepMs ?? 5 }),
      failNext,
      throwNext,
    ),
    reporterFactory: (job) =>
      fanOutReporter([
        createSlackReporter({
          client: web,
          target: job.request.target!,
          header: {
            application: job.request.application,
            destination: 'production',
            initiator: job.request.initiator,
            commandText: `/sync ${job.request.application}`,
            jobId: job.jobId,
          },
          coalesceMs: 0,
          headerIntervalMs: 0,
        }),
        notifier.reporterFor(job),
      ]),
    recheckMs: 200,
  });
  // Closing a producer or worker whose connection is still being set up rejects inside BullMQ/ioredis
  // ("Connection is closed"), so a test that never touches the queue would leave an unhandled rejection.
  await worker.waitUntilReady();
  await waitFor(
    () =>
      queue.allStatus().then(
        () => true,
        () => false,
      ),
    5000,
    'the queue connection',
  );
  const bot = createSlackApp({
    botToken: slack.botToken,
    signingSecret: SECRET,
    apiUrl: slack.apiUrl,
    port: 0,
    host: '127.0.0.1',
    clientRetries: 0,
    deps: {
      queue,
      catalog: catalogOf(apps),
      approvals: createApprovalGate(approvals, messenger),
      approvalFlow: approvals,
      driftNotices: redisDriftNoticeRefs(redis, prefix),
      durable: allDurable([queue.durable, durable]),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.resourceViews ? { resourceViews: options.resourceViews, actionAudit: audit } : {}),
    },
  });
  const { port } = await bot.start();
  const signed = new SignedSlackClient(`http://127.0.0.1:${port}`, SECRET);
  return {
    slack,
    bot: signed,
    failNext,
    throwNext,
    approvals,
    store,
    notifier,
    queue,
    redis,
    prefix,
    appDir,
    clock,
    async requestApproval(text, userId = 'U0PAT') {
      const before = slack.channelMessages(DEPLOYS).length;
      await signed.sendCommand({ text, userId, channelId: DEPLOYS });
      return slack.waitFor(() => {
        const message = slack.channelMessages(DEPLOYS).slice(before)[0];
        const value =
          message &&
          buttonsOf(slack, DEPLOYS, message.ts)?.find((b) => b.action_id === APPROVE_ACTION_ID)?.value;
        return message && value ? { ts: message.ts, value } : undefined;
      });
    },
    async close() {
      await bot.stop();
      await worker.close({ graceMs: 2000 });
      await queue.close();
      await slack.close();
      await deleteKeys(redis, prefix);
      await rm(root, { recursive: true, force: true });
    },
  };
}
