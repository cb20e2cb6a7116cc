/**
 * Resource actions in an environment that requires approval, end to end: the real Bolt app over HTTP (signed
 * requests), the fake Slack Web API, the approval flow on the real Redis, and the Kubernetes API simulator. A
 * production `/sync action` posts an approval request (which action, on which object, of which Application) and
 * writes nothing; approved by someone else it runs once (a second click, and the stranded-approval sweeper, do not run
 * it again); rejected or expired it never runs; the requester cannot approve it; and an action the environment
 * lets skip approval (`resourceActions.restart.requireApproval: false`) runs at once.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import type { KubeObject } from '../../../src/domain/index.js';
import { APPROVE_ACTION_ID, REJECT_ACTION_ID } from '../../../src/environments/index.js';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';
import { RESTARTED_AT_ANNOTATION } from '../../../src/resource-actions/built-in-actions.js';
import { createResourceActionCatalog, createResourceViews } from '../../../src/resource-actions/index.js';
import { REDIS_URL } from '../support/queue-test-env.js';
import { buttonsOf, DEPLOYS, type FlowEnv, startFlowEnv } from './approval-flow-env.js';

const SETTINGS = [
  'environments:',
  '  production:',
  '    requireApproval: true',
  '    approvers: { users: [U0SAM, U0PAT] }',
  '    channels: [C0DEPLOYS]',
  '  dual:',
  '    requireApproval: true',
  '    approvers: { users: [U0SAM, U0KIM] }',
  '    resourceActions: { restart: { requireApproval: false } }',
].join('\n');

let redis: Redis;
let sim: Simulator;
let env: FlowEnv;
let cluster: ReturnType<typeof createKubeCluster>;

function deployment(application: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: application,
      annotations: { 'argocd.argoproj.io/tracking-id': `${application}:apps/Deployment:${application}/web` },
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'main', image: 'nginx' }] },
      },
    },
  };
}

async function restartedAt(namespace: string): Promise<string | undefined> {
  const live = await cluster.get({ apiVersion: 'apps/v1', kind: 'Deployment', namespace, name: 'web' });
  const template = (live?.spec as { template?: { metadata?: { annotations?: Record<string, string> } } })
    ?.template;
  return template?.metadata?.annotations?.[RESTARTED_AT_ANNOTATION];
}

beforeAll(async () => {
  redis = new Redis(REDIS_URL);
  sim = await startSimulator({ speed: 20 });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig({ namespace: 'guestbook' }));
  cluster = createKubeCluster(kc, { watchTimeoutSeconds: 2 });
  for (const ns of ['guestbook', 'payments']) {
    await cluster.apply(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
      { dryRun: false, force: true },
    );
    await cluster.apply(deployment(ns), { dryRun: false, force: true });
  }
}, 60_000);

afterAll(async () => {
  await sim?.stop();
  await redis?.quit();
});

beforeEach(async () => {
  env = await startFlowEnv(redis, {
    settings: SETTINGS,
    resourceViews: createResourceViews({
      clusterFor: () => cluster,
      actions: createResourceActionCatalog({}),
    }),
  });
});

afterEach(() => env.close());

/** `/sync action <text>` by `userId` in #deploys; resolves with the approval message posted for it. */
async function requestAction(text: string, userId = 'U0PAT') {
  const before = env.slack.channelMessages(DEPLOYS).length;
  const res = await env.bot.sendCommand({
    text: `action ${text}`,
    userId,
    channelId: DEPLOYS,
    responseUrl: env.slack.responseUrl(`request-${before}`),
  });
  expect(res.status).toBe(200);
  return env.slack.waitFor(() => {
    const message = env.slack.channelMessages(DEPLOYS).slice(before)[0];
    const value =
      message &&
      buttonsOf(env.slack, DEPLOYS, message.ts)?.find((b) => b.action_id === APPROVE_ACTION_ID)?.value;
    return message && value ? { ts: message.ts, value, responseId: `request-${before}` } : undefined;
  });
}

/** What the bot answered the command with through its response_url (ephemeral or in channel). */
const answered = (id: string) =>
  env.slack.waitFor(() => env.slack.responseUrlPosts(id)[0]).then((p) => JSON.stringify(p.body));

async function click(actionId: string, userId: string, posted: { ts: string; value: string }) {
  const ephemerals = env.slack.calls('chat.postEphemeral').length;
  const updates = env.slack.message(DEPLOYS, posted.ts)?.updates ?? 0;
  const res = await env.bot.sendBlockAction({
    actionId,
    userId,
    messageTs: posted.ts,
    value: posted.value,
    channelId: DEPLOYS,
  });
  expect(res.status).toBe(200);
  await env.slack.waitFor(
    () =>
      env.slack.calls('chat.postEphemeral').length > ephemerals ||
      (env.slack.message(DEPLOYS, posted.ts)?.updates ?? 0) > updates,
  );
}

const lastEphemeralTo = (userId: string) =>
  env.slack
    .calls('chat.postEphemeral')
    .filter((c) => c.args.user === userId)
    .at(-1)?.args.text as string | undefined;

async function actionAudits(application: string) {
  const view = await env.approvals.audit(application, 'U0SAM', 100, DEPLOYS);
  if (!view.allowed) throw new Error(view.reason);
  return view.records.filter((r) => r.type === 'resource-action');
}

describe('resource actions that need an approval', () => {
  it('posts an approval request saying which action on which object of which app, and writes nothing', async () => {
    const before = await restartedAt('guestbook');
    const posted = await requestAction('guestbook restart Deployment/web');
    const message = env.slack.message(DEPLOYS, posted.ts);
    expect(message?.text).toContain('⚙️ restart Deployment/web of guestbook → production  ·  needs approval');
    expect(JSON.stringify(message?.blocks)).toContain('Would: patch Deployment/web');
    expect(JSON.stringify(message?.blocks)).toContain('/sync action guestbook restart Deployment/web');
    const told = await answered(posted.responseId);
    expect(told).toContain('"response_type":"ephemeral"');
    expect(told).toContain('needs an approval');
    expect(await restartedAt('guestbook')).toBe(before);
    const pending = await env.approvals.pendingApprovals('guestbook');
    expect(pending.map((p) => p.resourceAction)).toEqual(['restart Deployment/web']);
    // A resource action's request does not hold the application's syncs (drift, new revisions) back.
    expect(await env.store.hasPending('guestbook')).toBe(false);
  });

  it('refuses the requester approving their own action; another approver runs it once, posted in the thread and audited', async () => {
    const posted = await requestAction('guestbook restart Deployment/web');
    await click(APPROVE_ACTION_ID, 'U0PAT', posted);
    expect(lastEphemeralTo('U0PAT')).toContain('You requested this resource action; someone else');
    expect(await actionAudits('guestbook')).toHaveLength(0);

    await click(APPROVE_ACTION_ID, 'U0SAM', posted);
    const reply = await env.slack.waitFor(() =>
      env.slack.thread(DEPLOYS, posted.ts).find((m) => m.text.includes('ran restart Deployment/web')),
    );
    expect(reply.text).toContain(
      'Approved by @U0SAM: ran restart Deployment/web on guestbook for @U0PAT: patched Deployment/web',
    );
    expect(await restartedAt('guestbook')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(env.slack.message(DEPLOYS, posted.ts)?.text).toContain('Approved by @U0SAM');
    expect(JSON.stringify(env.slack.message(DEPLOYS, posted.ts)?.blocks)).toContain(
      'ran: patched Deployment/web',
    );

    // Once: another click is refused, and the sweeper of stranded approvals does not run it again.
    await click(APPROVE_ACTION_ID, 'U0SAM', posted);
    expect(lastEphemeralTo('U0SAM')).toContain('already approved');
    env.clock.now += 60_000;
    expect(await env.approvals.enqueueStranded()).toBe(0);
    const audits = await actionAudits('guestbook');
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ phase: 'Succeeded', reason: 'patched Deployment/web' });
    expect(env.slack.thread(DEPLOYS, posted.ts).filter((m) => m.text.includes('ran restart'))).toHaveLength(
      1,
    );
  });

  it('a rejected or expired request never runs', async () => {
    const before = await restartedAt('guestbook');
    const rejected = await requestAction('guestbook restart Deployment/web');
    await click(REJECT_ACTION_ID, 'U0SAM', rejected);
    expect(env.slack.message(DEPLOYS, rejected.ts)?.text).toContain('Rejected by @U0SAM');

    const expiring = await requestAction('guestbook restart Deployment/web');
    env.clock.now += 31 * 60_000;
    expect(await env.approvals.expireDue()).toBe(1);
    expect(env.slack.message(DEPLOYS, expiring.ts)?.text).toContain(
      'Expired — run /sync action guestbook restart Deployment/web again',
    );
    await click(APPROVE_ACTION_ID, 'U0SAM', expiring);
    expect(lastEphemeralTo('U0SAM')).toContain('This request expired');
    expect(await env.approvals.enqueueStranded()).toBe(0);
    expect(await restartedAt('guestbook')).toBe(before);
    expect(await actionAudits('guestbook')).toHaveLength(0);
  });

  it('an action that cannot run is refused at once (nothing posted for approval)', async () => {
    const before = env.slack.channelMessages(DEPLOYS).length;
    await env.bot.sendCommand({
      text: 'action guestbook scale Deployment/web',
      userId: 'U0PAT',
      channelId: DEPLOYS,
      responseUrl: env.slack.responseUrl('cannot'),
    });
    const told = await answered('cannot');
    expect(told).toContain('cannot run: Deployment/web offers no action scale');
    expect(env.slack.channelMessages(DEPLOYS)).toHaveLength(before);
  });

  it('an action the environment lets skip approval runs at once', async () => {
    const res = await env.bot.sendCommand({
      text: 'action payments restart Deployment/web',
      userId: 'U0PAT',
      channelId: DEPLOYS,
      responseUrl: env.slack.responseUrl('optout'),
    });
    expect(res.status).toBe(200);
    const posted = await env.slack.waitFor(() => env.slack.responseUrlPosts('optout')[0]);
    expect(posted.body.response_type).toBe('in_channel');
    expect(JSON.stringify(posted.body)).toContain(
      'ran *restart* on Deployment/web of *payments*: patched Deployment/web',
    );
    expect(await restartedAt('payments')).toBeDefined();
    expect(await env.approvals.pendingApprovals('payments')).toEqual([]);
  });
});
