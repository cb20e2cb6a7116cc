/**
 * Drift detection end to end (issue 9), through the composition root: `startWavesync('serve')` (bot + worker) and
 * a second `startWavesync('bot')` replica — two drift detectors sharing the real Redis under one queue prefix —
 * with the real BullMQ queue, the Kubernetes API simulator over HTTP (client-node), and the fake Slack Web API
 * with signed requests. Drift is made out of band through client-node; each test calls the detectors' tick()
 * directly (the interval is an hour), so nothing sleeps on a timer.
 */
import { randomUUID } from 'node:crypto';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import { FakeSlackApi } from '../../../src/demo/fake-slack/fake-slack-api.js';
import { SignedSlackClient } from '../../../src/demo/fake-slack/slack-client.js';
import { removeRedisPrefix } from '../../../src/demo/remove-redis-prefix.js';
import { APPROVE_ACTION_ID } from '../../../src/environments/index.js';
import { createLogger } from '../../../src/logger.js';
import { type RunningWavesync, startWavesync } from '../../../src/main/start-wavesync.js';
import { createSyncQueue, type SyncQueue } from '../../../src/queue/index.js';
import { DRIFT_SYNC_ACTION_ID } from '../../../src/slack/messages/drift-notice-blocks.js';
import { renderBlocksAsText } from '../../../src/slack/messages/render-blocks-as-text.js';
import { waitFor } from '../../integration/support/queue-test-env.js';
import { e2eConfig } from '../support/serve-stack.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const examples = path.resolve(import.meta.dirname, '../../../examples');
const CHANNELS = {
  shop: 'C0SHOP',
  heal: 'C0HEAL',
  prod: 'C0PROD',
  broken: 'C0BROKEN',
  empty: 'C0EMPTY',
  fresh: 'C0FRESH',
} as const;
type AppName = keyof typeof CHANNELS;

const SETTINGS = `
applications:
  - directory: applications
defaults:
  healthTimeoutSeconds: 15
  driftDetection: { intervalSeconds: 3600 }
  # No revision polling: it would give the never-synced automated app \`fresh\` its first automated sync (an
  # approval request) if a run outlasted one interval; sync on push has its own tests (test/e2e/revisions).
  reconciliation: { timeoutSeconds: 0 }
environments:
  production:
    requireApproval: true
    approvers: { users: [U0SAM] }
    requesters: { users: [U0PAT, U0SAM] }
  staging: {}
`;

function application(
  name: AppName,
  environment: string,
  automated: string,
  sourcePath = 'manifests/guestbook',
) {
  return `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${name}
  namespace: argocd
  labels: { wavesync.io/environment: ${environment} }
  annotations: { wavesync.io/channel: ${CHANNELS[name]} }
spec:
  project: default
  source: { repoURL: "", path: ${sourcePath} }
  destination: { server: https://kubernetes.default.svc, namespace: ${name} }
  syncPolicy:
    automated: ${automated}
    syncOptions: [CreateNamespace=true]
`;
}

let sim: Simulator;
let slack: FakeSlackApi;
let serve: RunningWavesync;
let replica: RunningWavesync;
let queue: SyncQueue;
let serveClient: SignedSlackClient;
let replicaClient: SignedSlackClient;
let apps: AppsV1Api;
let core: CoreV1Api;
let dir: string;
const prefix = `wavesync-drift-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  sim = await startSimulator({ speed: 20 });
  slack = await FakeSlackApi.start({
    postIntervalMs: 1,
    burst: 1000,
    users: [
      { id: 'U0PAT', name: 'pat' },
      { id: 'U0SAM', name: 'sam' },
      { id: 'U0LEE', name: 'lee' },
    ],
  });
  dir = await mkdtemp(path.join(tmpdir(), 'wavesync-drift-'));
  await cp(path.join(examples, 'manifests/guestbook'), path.join(dir, 'manifests/guestbook'), {
    recursive: true,
  });
  await mkdir(path.join(dir, 'applications'));
  await writeFile(path.join(dir, 'wavesync.yaml'), SETTINGS);
  const manifests: [AppName, string][] = [
    ['shop', application('shop', 'staging', '{}')],
    ['heal', application('heal', 'staging', '{ prune: true, selfHeal: true }')],
    ['prod', application('prod', 'production', '{ prune: true, selfHeal: true }')],
    ['broken', application('broken', 'staging', '{ selfHeal: true }', 'manifests/missing')],
    ['empty', application('empty', 'staging', '{ prune: true, selfHeal: true }', 'manifests/empty')],
    ['fresh', application('fresh', 'production', '{ prune: true, selfHeal: true }')],
  ];
  await mkdir(path.join(dir, 'manifests/empty'));
  for (const [name, yaml] of manifests) await writeFile(path.join(dir, 'applications', `${name}.yaml`), yaml);
  const kubeconfigFile = path.join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfigFile);
  const secret = randomUUID();
  const config = e2eConfig({
    slack,
    secret,
    kubeconfigFile,
    configFile: path.join(dir, 'wavesync.yaml'),
    prefix,
  });
  const logger = createLogger({ level: 'silent' });
  serve = await startWavesync('serve', { config, logger, host: '127.0.0.1' });
  replica = await startWavesync('bot', { config, logger, host: '127.0.0.1' });
  serveClient = new SignedSlackClient(`http://127.0.0.1:${serve.port}`, secret);
  replicaClient = new SignedSlackClient(`http://127.0.0.1:${replica.port}`, secret);
  queue = createSyncQueue({ connection: { url: REDIS_URL }, prefix });
  // The producer does not queue commands while connecting: wait until it answers.
  await waitFor(
    () =>
      queue.allStatus().then(
        () => true,
        () => false,
      ),
    10_000,
    'the queue connection',
  );
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigFile);
  apps = kc.makeApiClient(AppsV1Api);
  core = kc.makeApiClient(CoreV1Api);
  // Every app but `fresh` has been synced once (drift detection leaves never-synced apps alone); all but the
  // broken one (its sync fails: the manifests do not render) are in sync.
  for (const name of ['shop', 'heal', 'prod', 'broken', 'empty'] as const) await syncAndWait(name);
}, 120_000);

afterAll(async () => {
  await queue?.close();
  await replica?.close({ graceMs: 1000 });
  await serve?.close({ graceMs: 1000 });
  await slack?.close();
  await sim?.stop();
  await removeRedisPrefix(REDIS_URL, prefix);
  await rm(dir, { recursive: true, force: true });
});

/** Sync `name` through the queue (no Slack thread) and wait until it finished. */
async function syncAndWait(name: AppName): Promise<void> {
  const before = (await queue.history(name)).length;
  await queue.enqueueSync({
    application: name,
    operation: { prune: false, dryRun: false, syncOptions: [] },
    initiator: { userId: 'U0PAT', userName: 'pat' },
    target: undefined,
    requestKey: `setup-${randomUUID()}`,
  });
  await finishedSyncs(name, before + 1);
}

/** Wait until `name` has `count` finished syncs and none queued; resolves with the history, newest first. */
function finishedSyncs(name: AppName, count: number) {
  return waitFor(
    async () => {
      const [history, line] = await Promise.all([queue.history(name), queue.applicationStatus(name)]);
      return history.length >= count && line.length === 0 && history;
    },
    60_000,
    `${count} finished syncs of ${name}`,
  );
}

/** Both replicas' detectors, `times` rounds, each round concurrently (they race on the Redis episode state). */
async function tickBoth(times = 3): Promise<void> {
  for (let i = 0; i < times; i++) await Promise.all([serve.drift!.tick(), replica.drift!.tick()]);
}

const roots = (name: AppName) => slack.channelMessages(CHANNELS[name]).filter((m) => !m.threadTs);

type BlockJson = { type: string; elements?: { value?: string; action_id?: string }[] };
function buttons(name: AppName, ts: string) {
  const blocks = slack.message(CHANNELS[name], ts)?.blocks as BlockJson[] | undefined;
  return (blocks ?? []).filter((b) => b.type === 'actions').flatMap((b) => b.elements ?? []);
}
function messageText(name: AppName, ts: string): string {
  const blocks = slack.message(CHANNELS[name], ts)?.blocks as Parameters<typeof renderBlocksAsText>[0];
  return renderBlocksAsText(blocks ?? []);
}

async function scale(name: AppName, replicas: number): Promise<void> {
  const current = await apps.readNamespacedDeployment({ name: 'guestbook-ui', namespace: name });
  current.spec!.replicas = replicas;
  await apps.replaceNamespacedDeployment({ name: 'guestbook-ui', namespace: name, body: current });
}

async function liveReplicas(name: AppName): Promise<number | undefined> {
  return (await apps.readNamespacedDeployment({ name: 'guestbook-ui', namespace: name })).spec?.replicas;
}

/** `/sync <name>` by `userId` in the app's channel (production: an approval request); resolves with its header. */
async function requestProdSync(name: AppName, userId: 'U0PAT' | 'U0SAM') {
  const before = new Set(roots(name).map((m) => m.ts));
  await serveClient.sendCommand({
    text: name,
    userId,
    userName: userId === 'U0PAT' ? 'pat' : 'sam',
    channelId: CHANNELS[name],
    responseUrl: slack.responseUrl(CHANNELS[name]),
  });
  return slack.waitFor(
    () =>
      roots(name).find(
        (m) => !before.has(m.ts) && buttons(name, m.ts).some((b) => b.action_id === APPROVE_ACTION_ID),
      ),
    10_000,
  );
}

/** The texts of the ephemeral replies (response_url posts) in `name`'s channel, oldest first. */
function ephemeralTexts(name: AppName): string[] {
  return slack.responseUrlPosts(CHANNELS[name]).map((p) => String(p.body.text ?? ''));
}

const USER_NAMES = { U0PAT: 'pat', U0SAM: 'sam', U0LEE: 'lee' } as const;

function clickSync(
  client: SignedSlackClient,
  name: AppName,
  ts: string,
  userId: keyof typeof USER_NAMES = 'U0PAT',
) {
  return client.sendBlockAction({
    actionId: DRIFT_SYNC_ACTION_ID,
    userId,
    userName: USER_NAMES[userId],
    channelId: CHANNELS[name],
    messageTs: ts,
    value: name,
    responseUrl: slack.responseUrl(CHANNELS[name]),
  });
}

describe('test/e2e/drift/drift-detection', () => {
  it('when an app is in sync, then ticks post nothing; a broken app is reported in metrics and does not block the others', async () => {
    await tickBoth(2);

    expect(roots('shop')).toEqual([]);
    expect(roots('heal')).toEqual([]);
    expect(roots('prod')).toEqual([]);
    const metrics = (await serve.metrics.render()).body;
    expect(metrics).toMatch(/wavesync_drift_checks_total\{result="Error",trigger="interval"\} [1-9]/);
    expect(metrics).toMatch(/wavesync_drift_checks_total\{result="Synced",trigger="interval"\} [1-9]/);
    expect(metrics).toMatch(/wavesync_drift_out_of_sync_applications 0/);
  });

  it('when a Deployment is scaled out of band, then one notice with a Sync button is posted across ticks of two replicas; Sync runs /sync as the first clicker, a second click by anyone queues nothing, and the notice turns "back in sync"', async () => {
    const before = (await queue.history('shop')).length;
    await scale('shop', 3);

    await tickBoth(3);

    const [notice, ...more] = roots('shop');
    expect(more).toEqual([]);
    expect(notice).toBeDefined();
    const text = messageText('shop', notice!.ts);
    expect(text).toContain('OutOfSync: 1 resource differs');
    expect(text).toContain('Deployment/guestbook-ui');
    expect(text).toContain('spec.replicas changed');
    expect(buttons('shop', notice!.ts)).toEqual([
      expect.objectContaining({ action_id: DRIFT_SYNC_ACTION_ID, value: 'shop' }),
    ]);
    expect((await serve.metrics.render()).body).toMatch(/wavesync_drift_out_of_sync_applications 1/);

    // Two people click at once, one on each replica: one sync, by whoever clicked first; the other is told.
    const clicks = await Promise.all([
      clickSync(serveClient, 'shop', notice!.ts, 'U0PAT'),
      clickSync(replicaClient, 'shop', notice!.ts, 'U0SAM'),
    ]);
    expect(clicks.map((c) => c.status)).toEqual([200, 200]);
    const [synced] = await finishedSyncs('shop', before + 1);
    expect(synced?.phase).toBe('Succeeded');
    const first = synced!.initiator;
    expect(['U0PAT', 'U0SAM']).toContain(first.userId);
    const told = await slack.waitFor(
      () => ephemeralTexts('shop').find((t) => t.includes('already') || t.includes('Already')),
      10_000,
    );
    expect(told).toMatch(
      new RegExp(`^(Already queued by @${first.userId}:|A sync of shop is already running)`),
    );
    expect(told).toContain(`@${first.userId}`);
    expect(await liveReplicas('shop')).toBe(1);

    // A later click, by anyone, still queues nothing: the notice's one sync was queued.
    await clickSync(serveClient, 'shop', notice!.ts, first.userId === 'U0PAT' ? 'U0SAM' : 'U0PAT');
    await slack.waitFor(
      () => ephemeralTexts('shop').filter((t) => t.startsWith('Already queued by')).length >= 1,
    );
    await tickBoth(2);

    expect((await queue.history('shop')).length).toBe(before + 1);
    expect(await queue.applicationStatus('shop')).toEqual([]);
    const headers = roots('shop').filter((m) => m.ts !== notice!.ts);
    expect(headers).toHaveLength(1);
    expect(messageText('shop', headers[0]!.ts)).toContain('/sync shop');
    expect(messageText('shop', notice!.ts)).toContain('back in sync');
    expect(buttons('shop', notice!.ts)).toEqual([]);
    expect(slack.calls('chat.update').some((c) => c.args.ts === notice!.ts)).toBe(true);
    expect((await serve.metrics.render()).body).toMatch(/wavesync_drift_out_of_sync_applications 0/);
  });

  it('when an app with selfHeal drifts in an environment that allows it, then one sync by wavesync (selfHeal) is queued per episode, pruning the extra object, and the cluster is back in sync', async () => {
    const before = (await queue.history('heal')).length;
    await scale('heal', 4);
    await core.createNamespacedConfigMap({
      namespace: 'heal',
      body: {
        metadata: { name: 'stray', labels: { 'app.kubernetes.io/instance': 'heal' } },
        data: { a: '1' },
      },
    });

    await tickBoth(3);
    const history = await finishedSyncs('heal', before + 1);
    await tickBoth(2);

    expect((await queue.history('heal')).length).toBe(before + 1);
    expect(history[0]).toMatchObject({ initiator: { userName: 'wavesync (selfHeal)' }, phase: 'Succeeded' });
    expect(await liveReplicas('heal')).toBe(1);
    await expect(core.readNamespacedConfigMap({ name: 'stray', namespace: 'heal' })).rejects.toThrow();
    const [header, ...more] = roots('heal');
    expect(more).toEqual([]);
    expect(messageText('heal', header!.ts)).toContain('wavesync (selfHeal)');
    const thread = slack.thread(CHANNELS.heal, header!.ts).map((m) => m.text);
    expect(thread[0]).toContain('Self-heal: OutOfSync: 2 resources differ');
    // No person asked for it: the audit log says what did (selfHeal), the job and what drifted.
    const audit = new Redis(REDIS_URL);
    const entries = await audit.xrange(`${prefix}:audit:heal`, '-', '+').finally(() => audit.disconnect());
    const selfHeal = entries.map(([, fields]) => fields).filter((f) => f[1] === 'self-heal');
    expect(selfHeal).toHaveLength(1);
    expect(selfHeal[0]).toEqual(expect.arrayContaining(['trigger', 'selfHeal', 'jobId', history[0]!.jobId]));
    expect(selfHeal[0]?.join(' ')).toMatch(/drift in 2 resource\(s\): .*ConfigMap\/stray \(extraneous\)/);
  });

  it('when a production app with selfHeal drifts, then it is not synced automatically: a notice whose Sync button asks for approval', async () => {
    const before = (await queue.history('prod')).length;
    await scale('prod', 2);

    await tickBoth(3);

    expect((await queue.history('prod')).length).toBe(before);
    expect(await queue.applicationStatus('prod')).toEqual([]);
    const [notice, ...more] = roots('prod');
    expect(more).toEqual([]);
    expect(messageText('prod', notice!.ts)).toContain('selfHeal not allowed: production requires approval');

    // @lee may not request production syncs: the click is refused to @lee only (nothing posted, nothing
    // claimed), and the notice stays clickable.
    // Counted in prod's channel: the earlier tests' threads are still delivered at Slack's pace in theirs.
    const prodPosts = () =>
      slack
        .calls('chat.postMessage')
        .filter((c) => c.args.channel === CHANNELS.prod)
        .map((c) => c.args.text);
    const postsBefore = prodPosts();
    await clickSync(serveClient, 'prod', notice!.ts, 'U0LEE');
    const refusal = await slack.waitFor(() => ephemeralTexts('prod').find((t) => t.startsWith('🚫')), 10_000);
    expect(refusal).toContain('Nothing was queued.');
    expect(prodPosts()).toEqual(postsBefore);
    await clickSync(serveClient, 'prod', notice!.ts, 'U0PAT');
    const approval = await slack.waitFor(
      () => roots('prod').find((m) => buttons('prod', m.ts).some((b) => b.action_id === APPROVE_ACTION_ID)),
      10_000,
    );
    // A second click, by someone else on the other replica, asks for no second approval.
    await clickSync(replicaClient, 'prod', notice!.ts, 'U0SAM');
    const told = await slack.waitFor(
      () => ephemeralTexts('prod').find((t) => t.startsWith('Already queued by')),
      10_000,
    );

    expect(told).toMatch(/^Already queued by @U0PAT: /);
    expect(approval.ts).not.toBe(notice!.ts);
    const approvals = roots('prod').filter((m) =>
      buttons('prod', m.ts).some((b) => b.action_id === APPROVE_ACTION_ID),
    );
    expect(approvals.map((m) => m.ts)).toEqual([approval.ts]);
    expect(await queue.applicationStatus('prod')).toEqual([]);
    expect(await liveReplicas('prod')).toBe(2);
  });

  it('when a production app has never been synced, or its sync waits for approval, then it is not compared and no notice is posted', async () => {
    // Never synced: nothing of it is live, so a comparison would find every resource missing.
    await tickBoth(2);

    expect(roots('fresh')).toEqual([]);
    expect(await queue.history('fresh')).toEqual([]);
    expect((await serve.metrics.render()).body).toMatch(
      /wavesync_drift_checks_total\{result="Skipped",trigger="interval"\} [1-9]/,
    );

    // Its first sync waits for approval: still nothing but the approval request.
    const approval = await requestProdSync('fresh', 'U0PAT');
    await tickBoth(2);
    expect(roots('fresh').map((m) => m.ts)).toEqual([approval.ts]);

    // Approved and synced, then drifted while a second sync waits for approval: no notice either.
    const value = buttons('fresh', approval.ts).find((b) => b.action_id === APPROVE_ACTION_ID)!.value;
    await serveClient.sendBlockAction({
      actionId: APPROVE_ACTION_ID,
      userId: 'U0SAM',
      userName: 'sam',
      channelId: CHANNELS.fresh,
      messageTs: approval.ts,
      ...(value === undefined ? {} : { value }),
    });
    await finishedSyncs('fresh', 1);
    // The second request first: a change to a tracked object asks for a comparison at once (watch-driven).
    const second = await requestProdSync('fresh', 'U0SAM');
    await scale('fresh', 3);
    await tickBoth(2);
    expect(roots('fresh').map((m) => m.ts)).toEqual([approval.ts, second.ts]);
    expect(
      roots('fresh')
        .map((m) => messageText('fresh', m.ts))
        .join('\n'),
    ).not.toContain('OutOfSync');
  });

  it('when both replicas reach an interval, then only the one holding the lease compares', async () => {
    // Interval checks only: change-driven checks (watch events of the previous tests' syncs) may land meanwhile.
    const checks = async () => {
      const body = (await serve.metrics.render()).body + (await replica.metrics.render()).body;
      return [
        ...body.matchAll(/wavesync_drift_checks_total\{result="\w+",trigger="interval"\} (\d+)/g),
      ].reduce((n, m) => n + Number(m[1]), 0);
    };
    const before = await checks();

    const ticked = await Promise.all([serve.drift!.tickIfLeader(), replica.drift!.tickIfLeader()]);

    expect(ticked.filter(Boolean)).toHaveLength(1);
    expect(await checks()).toBe(before + Object.keys(CHANNELS).length);
  });

  it('when an app with prune and selfHeal renders nothing while its objects remain, then it is not synced automatically (allowEmpty)', async () => {
    await core.createNamespace({ body: { metadata: { name: 'empty' } } }).catch(() => undefined);
    await core.createNamespacedConfigMap({
      namespace: 'empty',
      body: {
        metadata: { name: 'kept', labels: { 'app.kubernetes.io/instance': 'empty' } },
        data: { a: '1' },
      },
    });

    await tickBoth(2);

    expect(await queue.history('empty')).toHaveLength(1);
    expect(await queue.applicationStatus('empty')).toEqual([]);
    const [notice, ...more] = roots('empty');
    expect(more).toEqual([]);
    expect(messageText('empty', notice!.ts)).toContain('selfHeal refused: the manifests are empty');
    expect(messageText('empty', notice!.ts)).toContain('ConfigMap/kept');
    await expect(core.readNamespacedConfigMap({ name: 'kept', namespace: 'empty' })).resolves.toBeDefined();
  });

  it('when a tracked object is edited out of band and no interval comes, then a change-driven check posts one notice within seconds, and the edit undone turns it "back in sync"', async () => {
    const changeChecks = async () => {
      const body = (await serve.metrics.render()).body + (await replica.metrics.render()).body;
      return [...body.matchAll(/wavesync_drift_checks_total\{result="\w+",trigger="change"\} (\d+)/g)].reduce(
        (n, m) => n + Number(m[1]),
        0,
      );
    };
    const before = new Set(roots('shop').map((m) => m.ts));
    const replicas = (await liveReplicas('shop')) ?? 1;
    const checksBefore = await changeChecks();
    const started = Date.now();

    await scale('shop', replicas + 3);
    const notice = await slack.waitFor(
      () => roots('shop').find((m) => !before.has(m.ts) && messageText('shop', m.ts).includes('OutOfSync')),
      10_000,
    );

    expect(Date.now() - started).toBeLessThan(10_000);
    expect(messageText('shop', notice.ts)).toContain('spec.replicas changed');
    expect(await changeChecks()).toBeGreaterThan(checksBefore);

    await scale('shop', replicas);
    await slack.waitFor(() => messageText('shop', notice.ts).includes('back in sync'), 10_000);
    expect(roots('shop').filter((m) => !before.has(m.ts))).toHaveLength(1);
  });
});
