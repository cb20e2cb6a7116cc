/**
 * A rollout whose production step's approval is rejected or expires stops at once: on the real Redis (the approval
 * store, the rollout's chain store, a BullMQ queue — no worker: the test plays the worker's hooks), the real approval
 * flow (createApprovalServices, its clock moved to expire a request) joined to the real rollout wiring as the bot
 * joins them (ApprovalWiring.onRequestClosed → RolloutWiring.approvalClosed), and the real Slack announcer and
 * approval messenger on the fake Slack API. The stop names the Application and why (who rejected it, after how long
 * it expired), is posted in the rollout's thread and shown in the channel, closes the rollout's other pending
 * request, and no later step is ever queued.
 */
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolloutJobId } from '../../../src/app-of-apps/index.js';
import { createApplicationRenderer } from '../../../src/applications/render/render-application.js';
import type { Application, OperationState } from '../../../src/domain/index.js';
import { APPROVE_ACTION_ID, type Approvals, REJECT_ACTION_ID } from '../../../src/environments/index.js';
import { createLogger } from '../../../src/logger.js';
import { createRolloutWiring, type RolloutWiring } from '../../../src/main/rollout-wiring.js';
import { createSyncQueue, type RolloutChain, type SyncRequest } from '../../../src/queue/index.js';
import { createApprovalServices } from '../../../src/requests/index.js';
import { parseSettings } from '../../../src/settings/index.js';
import {
  createSlackApprovalMessenger,
  slackGroupMembers,
} from '../../../src/slack/reporters/slack-approval-messenger.js';
import { createSlackWebClient } from '../../../src/slack/slack-web-client.js';
import { ChannelPacer } from '../../../src/thread/channel-pacer.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { sharedFixturesDir } from '../../support/shared-fixtures.js';
import { buttonsOf, WEDNESDAY } from '../approvals/approval-flow-env.js';
import { deleteKeys, REDIS_URL, testRedis, uniquePrefix, waitFor } from '../support/queue-test-env.js';

const CHANNEL = 'C0ROLLOUT';
const REQUESTER = { userId: 'U0PAT', userName: 'pat' };
const APPROVER = 'U0SAM';
const SETTINGS = [
  'environments:',
  '  staging: {}',
  '  production:',
  '    requireApproval: true',
  '    approvers: { users: [U0SAM] }',
  '    approvalExpiryMinutes: 30',
].join('\n');

const redis = testRedis();
const prefix = uniquePrefix();
const queue = createSyncQueue({ connection: { url: REDIS_URL }, prefix });
let slack: FakeSlackApi;
let root: string;
const clock = { now: WEDNESDAY };
let approvals: Approvals;
let rollout: RolloutWiring;
let web: ReturnType<typeof createSlackWebClient>;
/** Errors of the approval flow after a decision (Slack, the rollout listener): none expected. */
const errors: unknown[] = [];

function application(name: string, environment: string): Application {
  return {
    name,
    namespace: 'argocd',
    project: 'default',
    source: { repoURL: '', path: 'guestbook', targetRevision: 'main' },
    destination: { server: 'https://kubernetes.default.svc', namespace: name },
    finalizers: [],
    labels: { 'wavesync.io/environment': environment },
    annotations: {},
    manifest: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name }, spec: {} },
    origin: `shop.yaml:1 (ApplicationSet shop)`,
  };
}

const APPS = new Map(
  [
    application('shop-dev', 'staging'),
    application('shop-prod-eu', 'production'),
    application('shop-prod-us', 'production'),
    application('shop-late', 'staging'),
  ].map((a) => [a.name, a]),
);

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'wavesync-rollout-approvals-'));
  await cp(sharedFixturesDir('argocd-example-apps', 'guestbook'), path.join(root, 'guestbook'), {
    recursive: true,
  });
  slack = await FakeSlackApi.start({ postIntervalMs: 1, burst: 1000 });
  web = createSlackWebClient({ botToken: slack.botToken, apiUrl: slack.apiUrl, retries: 0 });
  const logger = createLogger({ level: 'silent' });
  const settings = parseSettings(SETTINGS, path.join(root, 'wavesync.yaml'));
  // As the bot wires them (src/main/start-bot.ts): the rollout is told when a request closes unapproved.
  const listener: { closed?: RolloutWiring['approvalClosed'] } = {};
  const services = createApprovalServices({
    redis,
    prefix,
    settings,
    findApplication: (name) => APPS.get(name),
    renderer: createApplicationRenderer({ baseDir: root }),
    queue,
    messenger: createSlackApprovalMessenger(web),
    listGroupMembers: slackGroupMembers(web),
    now: () => clock.now,
    onClosed: async (record) => listener.closed?.(record),
    onDeliveryError: (err) => errors.push(err),
  });
  approvals = services.approvals;
  rollout = createRolloutWiring({
    queue,
    redis,
    prefix,
    registry: { find: (name) => APPS.get(name), applicationSet: () => undefined },
    approvals,
    web,
    pacer: new ChannelPacer(1),
    logger,
  });
  listener.closed = (record) => rollout.approvalClosed(record);
});

afterAll(async () => {
  expect(errors).toEqual([]);
  await queue.close();
  await slack.close();
  await deleteKeys(redis, prefix);
  redis.disconnect();
  await rm(root, { recursive: true, force: true });
});

/** A rollout of `shop` in a new thread: dev, then both production Applications (2 at once), then late. */
async function startRollout(): Promise<RolloutChain> {
  const header = await web.chat.postMessage({ channel: CHANNEL, text: 'Rollout of ApplicationSet shop' });
  const chain: RolloutChain = {
    applicationSet: 'shop',
    rolloutId: randomUUID(),
    target: { channel: CHANNEL, threadTs: header.ts! },
    steps: [
      { applications: ['shop-dev'], atOnce: 1 },
      { applications: ['shop-prod-eu', 'shop-prod-us'], atOnce: 2 },
      { applications: ['shop-late'], atOnce: 1 },
    ],
    approval: ['shop-prod-eu', 'shop-prod-us'],
    unassigned: [],
  };
  await rollout.starter.start(chain, REQUESTER);
  return chain;
}

const request = (chain: RolloutChain, application: string): SyncRequest => ({
  application,
  operation: { prune: false, dryRun: false, syncOptions: [] },
  initiator: REQUESTER,
  target: undefined,
  requestKey: `rollout:${chain.rolloutId}:${application}`,
  rollout: chain,
});

function succeeded(): OperationState {
  const now = new Date().toISOString();
  return {
    phase: 'Succeeded',
    message: 'successfully synced',
    operation: { prune: false, dryRun: false, syncOptions: [] },
    syncResult: { revision: 'abc', resources: [] },
    startedAt: now,
    finishedAt: now,
    health: { status: 'Healthy' },
  } as unknown as OperationState;
}

/** Play the worker: shop-dev (queued by the start) runs and ends Succeeded and Healthy. */
async function devSucceeds(chain: RolloutChain): Promise<void> {
  expect(await queue.jobStatus(rolloutJobId(chain.rolloutId, 'shop-dev'))).toBeDefined();
  const job = { jobId: rolloutJobId(chain.rolloutId, 'shop-dev'), request: request(chain, 'shop-dev') };
  await rollout.driver.lifecycle.started!(job);
  await rollout.driver.lifecycle.ended!({ ...job, state: succeeded(), cancelled: false });
}

type Button = { action_id?: string; value?: string };

/** The approval requests in the rollout's thread, by Application: their ts and buttons' values. */
async function approvalRequests(
  chain: RolloutChain,
): Promise<Map<string, { ts: string; value: string; approve: string }>> {
  return slack.waitFor(() => {
    const found = new Map<string, { ts: string; value: string; approve: string }>();
    for (const m of slack.thread(CHANNEL, chain.target!.threadTs)) {
      const buttons = (buttonsOf(slack, CHANNEL, m.ts) ?? []) as Button[];
      const reject = buttons.find((b) => b.action_id === REJECT_ACTION_ID)?.value;
      const approve = buttons.find((b) => b.action_id === APPROVE_ACTION_ID)?.value;
      const app = ['shop-prod-eu', 'shop-prod-us'].find((a) => m.text.includes(a));
      if (reject && approve && app) found.set(app, { ts: m.ts, value: reject, approve });
    }
    return found.size === 2 ? found : undefined;
  }, 15_000);
}

const threadTexts = (chain: RolloutChain) =>
  slack.thread(CHANNEL, chain.target!.threadTs).map((m) => ({ text: m.text, broadcast: m.broadcast }));

/** Nothing of the production Applications or of the later step was queued. */
async function nothingQueuedAfterDev(chain: RolloutChain): Promise<void> {
  for (const name of ['shop-prod-eu', 'shop-prod-us', 'shop-late'])
    expect(await queue.jobStatus(rolloutJobId(chain.rolloutId, name))).toBeUndefined();
  expect((await queue.allStatus()).map((s) => s.application).sort()).not.toContain('shop-late');
}

describe('a rollout stops at a production Application whose approval is not given', () => {
  it('rejected: the rollout stops at once naming who rejected it, closes the other pending request, never syncs the next step', async () => {
    const chain = await startRollout();
    await devSucceeds(chain);
    const requests = await approvalRequests(chain);

    const decided = await approvals.decide({
      decision: 'reject',
      value: requests.get('shop-prod-eu')!.value,
      userId: APPROVER,
      channel: CHANNEL,
      messageTs: requests.get('shop-prod-eu')!.ts,
    });
    expect(decided).toEqual({ kind: 'rejected' });

    const summary =
      '❌ Rollout of shop stopped at step 2: shop-prod-eu sync was rejected by @U0SAM · 1/4 synced and Healthy · ' +
      'not synced: shop-prod-us, shop-late';
    // Posted in the thread and shown in the channel (one message, broadcast), once.
    expect(threadTexts(chain).filter((m) => m.text.startsWith('❌ Rollout of shop'))).toEqual([
      { text: summary, broadcast: true },
    ]);
    // The message itself mentions the approver (the notification text above shows the mention as @id).
    const stop = slack.thread(CHANNEL, chain.target!.threadTs).find((m) => m.text === summary)!;
    expect(JSON.stringify(stop.blocks)).toContain('rejected by <@U0SAM>');
    // The other production request is closed with the reason (its buttons gone): a late click syncs nothing.
    const us = requests.get('shop-prod-us')!;
    expect(await approvals.pendingApprovals('shop-prod-us')).toEqual([]);
    expect(buttonsOf(slack, CHANNEL, us.ts)).toEqual([]);
    const late = await approvals.decide({
      decision: 'approve',
      value: us.approve,
      userId: APPROVER,
      channel: CHANNEL,
      messageTs: us.ts,
    });
    expect(late.kind).toBe('refused');
    expect(late.kind === 'refused' && late.reason).toContain(
      'invalidated: the rollout of shop stopped at step 2 (shop-prod-eu sync was rejected). Run /sync shop again.',
    );
    // The worker ends more hooks of this rollout (a retried shop-dev): nothing more is queued or posted.
    await devSucceeds(chain);
    await nothingQueuedAfterDev(chain);
    expect(threadTexts(chain).filter((m) => m.text.startsWith('❌ Rollout of shop'))).toHaveLength(1);
  });

  it('expired: the sweeper expiring the request stops the rollout with how long it waited; nothing later is synced', async () => {
    const chain = await startRollout();
    await devSucceeds(chain);
    await approvalRequests(chain);
    const startedAt = clock.now;

    clock.now = startedAt + 29 * 60_000;
    expect(await approvals.expireDue()).toBe(0);
    expect(threadTexts(chain).some((m) => m.text.startsWith('❌ Rollout of shop'))).toBe(false);

    clock.now = startedAt + 30 * 60_000 + 1;
    // Both requests are due: the first expired stops the rollout, which closes the other (already expiring).
    expect(await approvals.expireDue()).toBeGreaterThanOrEqual(1);
    await waitFor(
      async () => threadTexts(chain).some((m) => m.text.startsWith('❌ Rollout of shop')),
      5000,
      'the summary',
    );
    const stops = threadTexts(chain).filter((m) => m.text.startsWith('❌ Rollout of shop'));
    expect(stops).toHaveLength(1);
    expect(stops[0]!.broadcast).toBe(true);
    expect(stops[0]!.text).toMatch(
      /^❌ Rollout of shop stopped at step 2: shop-prod-(eu|us) approval expired after 30 min · 1\/4 synced and Healthy · not synced: (shop-prod-(eu|us), )?shop-late$/,
    );
    expect(await approvals.pendingApprovals()).toEqual([]);
    await nothingQueuedAfterDev(chain);
  });
});
