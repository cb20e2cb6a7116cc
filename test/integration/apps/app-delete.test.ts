import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../../sim/index.js';
import type { KubeObject } from '../../../src/domain/index.js';
import { isTrackedBy } from '../../../src/engine/index.js';
import { APPROVE_ACTION_ID, REJECT_ACTION_ID } from '../../../src/environments/index.js';
import type { Block } from '../../../src/slack/messages/block.js';
import {
  DELETE_CANCEL_ACTION_ID,
  DELETE_CONFIRM_ACTION_ID,
} from '../../../src/slack/messages/deletion-blocks.js';
import { renderBlocksAsText } from '../../../src/slack/messages/render-blocks-as-text.js';
import type { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import type { SignedSlackClient } from '../../fakes/slack-client.js';
import { installApplicationCrd } from '../../support/application-crd.js';
import { type ServeEnv, startServeEnv } from '../support/serve-env.js';

const SECRET = 'delete-test-secret';
const CHANNEL = 'C0DEPLOYS';
const PAT = 'U0PAT';
const SAM = 'U0SAM';
const FOREGROUND = 'resources-finalizer.argocd.argoproj.io';
const BACKGROUND = 'resources-finalizer.argocd.argoproj.io/background';

const MANIFESTS = `
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  annotations: { argocd.argoproj.io/sync-wave: "-1" }
data: { mode: demo }
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: keep-me
  annotations: { argocd.argoproj.io/sync-options: Delete=false }
data: { precious: "yes" }
---
apiVersion: v1
kind: Secret
metadata:
  name: helm-kept
  annotations: { helm.sh/resource-policy: keep }
stringData: { password: hunter2 }
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: 1
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec: { containers: [{ name: web, image: nginx:1.27 }] }
---
apiVersion: v1
kind: Service
metadata:
  name: web
  annotations: { argocd.argoproj.io/sync-wave: "1" }
spec:
  selector: { app: web }
  ports: [{ port: 80 }]
`;

/** 80 ConfigMaps over 40 waves (long names: the plan is far over one Slack section), a Delete=confirm and a Delete=false one. */
const BIG_MANIFESTS = [
  ...Array.from({ length: 80 }, (_, i) =>
    [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      `  name: big-configuration-map-number-${String(i).padStart(2, '0')}`,
      `  annotations: { argocd.argoproj.io/sync-wave: "${Math.floor(i / 2)}" }`,
      'data: { k: v }',
    ].join('\n'),
  ),
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: zz-confirm-me\n  annotations: { argocd.argoproj.io/sync-options: Delete=confirm }\ndata: { k: v }',
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: zz-keep\n  annotations: { argocd.argoproj.io/sync-options: Delete=false }\ndata: { k: v }',
].join('\n---\n');

/** A slow PreSync hook Job, then ConfigMap `one`: while the hook runs, only Job/slow is live. */
const BUSY_MANIFESTS = `
apiVersion: batch/v1
kind: Job
metadata:
  name: slow
  annotations: { argocd.argoproj.io/hook: PreSync }
spec:
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      containers: [{ name: run, image: busybox, command: [sh, -c, "sleep 100"] }]
---
apiVersion: v1
kind: ConfigMap
metadata: { name: one }
data: { k: v }
`;

function applicationYaml(
  name: string,
  environment: string,
  finalizers: string[],
  manifests = 'shop',
): string {
  return [
    'apiVersion: argoproj.io/v1alpha1',
    'kind: Application',
    'metadata:',
    `  name: ${name}`,
    '  namespace: argocd',
    `  labels: { wavesync.io/environment: ${environment} }`,
    `  finalizers: [${finalizers.map((f) => JSON.stringify(f)).join(', ')}]`,
    'spec:',
    '  project: default',
    `  source: { repoURL: "", path: manifests/${manifests} }`,
    `  destination: { server: https://kubernetes.default.svc, namespace: ${name} }`,
    '  syncPolicy: { syncOptions: [CreateNamespace=true] }',
    '',
  ].join('\n');
}

const SETTINGS = `
applications:
  - directory: applications
defaults:
  healthTimeoutSeconds: 20
environments:
  production:
    requireApproval: true
    approvers: { users: [${SAM}] }
  staging: {}
  restricted:
    requesters: { users: [${SAM}] }
  elsewhere:
    channels: [C0OTHER]
  frozen:
    freezeWindows:
      - { name: always, cron: "* * * * *", durationMinutes: 10 }
`;

const APPS: Record<string, { environment: string; finalizers: string[]; manifests?: string }> = {
  'big-prod': { environment: 'production', finalizers: [FOREGROUND], manifests: 'big' },
  busy: { environment: 'staging', finalizers: [FOREGROUND], manifests: 'busy' },
  guarded: { environment: 'restricted', finalizers: [FOREGROUND] },
  'elsewhere-app': { environment: 'elsewhere', finalizers: [FOREGROUND] },
  'frozen-app': { environment: 'frozen', finalizers: [FOREGROUND] },
  shop: { environment: 'staging', finalizers: [FOREGROUND] },
  'shop-bg': { environment: 'staging', finalizers: [BACKGROUND] },
  'shop-orphan': { environment: 'staging', finalizers: [] },
  'shop-prod': { environment: 'production', finalizers: [FOREGROUND] },
  'shop-rejected': { environment: 'production', finalizers: [FOREGROUND] },
  'shop-cancel': { environment: 'staging', finalizers: [FOREGROUND] },
};

let env: ServeEnv;
let sim: Simulator;
let slack: FakeSlackApi;
let bot: SignedSlackClient;
let prefix: string;
let redis: ServeEnv['redis'];
let cluster: ServeEnv['cluster'];

beforeAll(async () => {
  const files: Record<string, string> = {
    'manifests/shop/shop.yaml': MANIFESTS,
    'manifests/big/big.yaml': BIG_MANIFESTS,
    'manifests/busy/busy.yaml': BUSY_MANIFESTS,
    'wavesync.yaml': SETTINGS,
  };
  for (const [name, app] of Object.entries(APPS)) {
    files[`applications/${name}.yaml`] = applicationYaml(
      name,
      app.environment,
      app.finalizers,
      app.manifests,
    );
  }
  env = await startServeEnv({ secret: SECRET, files, env: { WAVESYNC_WORKER_CONCURRENCY: '4' } });
  ({ sim, slack, bot, prefix, redis, cluster } = env);
});

afterAll(() => env?.close());

type ButtonJson = { action_id?: string; value?: string };

function buttons(blocks: unknown): ButtonJson[] {
  return ((blocks ?? []) as { type: string; elements?: ButtonJson[] }[])
    .filter((b) => b.type === 'actions')
    .flatMap((b) => b.elements ?? []);
}

const text = (blocks: unknown) => renderBlocksAsText(blocks as Block[]);

/** `/sync <text>` as @pat; resolves with the ack's JSON. */
async function command(commandText: string, responseId: string, userId = PAT) {
  const delivery = await bot.sendCommand({
    text: commandText,
    userId,
    channelId: CHANNEL,
    responseUrl: slack.responseUrl(responseId),
  });
  expect(delivery.status).toBe(200);
  return delivery.json;
}

/** Sync `app` through `/sync` and wait until its header says Succeeded. */
async function syncFirst(app: string): Promise<void> {
  const before = slack.channelMessages(CHANNEL).length;
  await command(app, `sync-${app}`);
  await slack.waitFor(
    () =>
      slack
        .channelMessages(CHANNEL)
        .slice(before)
        .find((m) => m.text.includes(`${app}`) && m.text.includes('Succeeded')),
    60_000,
  );
}

/** `/sync delete <args>`; resolves with the confirmation (its text and the Delete button's value). */
async function requestDeletion(args: string, responseId: string) {
  await command(`delete ${args}`, responseId);
  const post = await slack.waitFor(
    () => slack.responseUrlPosts(responseId).find((p) => buttons(p.body.blocks).length > 0),
    20_000,
  );
  const confirm = buttons(post.body.blocks).find((b) => b.action_id === DELETE_CONFIRM_ACTION_ID)!;
  return { text: text(post.body.blocks), value: confirm.value!, blocks: post.body.blocks as Block[] };
}

/** Click a button of the confirmation as `userId`; resolves with the header the click posted (when any). */
async function click(actionId: string, value: string, responseId: string, userId = PAT) {
  const before = slack.channelMessages(CHANNEL).length;
  const delivery = await bot.sendBlockAction({
    actionId,
    value,
    userId,
    channelId: CHANNEL,
    messageTs: '1700000000.000100',
    responseUrl: slack.responseUrl(responseId),
  });
  expect(delivery.status).toBe(200);
  return before;
}

/**
 * The first header (a top-level message, not a reply broadcast to the channel) posted after `before` that matches.
 * A failed deletion's summary is broadcast and names the app and the phase too; it lands a few ms before the header
 * turns Error, so matching it instead of the header made the thread wait look at the summary's (empty) thread.
 */
async function headerAfter(before: number, probe: (text: string) => boolean, timeoutMs = 60_000) {
  return slack.waitFor(
    () =>
      slack
        .channelMessages(CHANNEL)
        .slice(before)
        .find((m) => m.threadTs === undefined && probe(text(m.blocks))),
    timeoutMs,
  );
}

function threadText(ts: string): string {
  return slack
    .thread(CHANNEL, ts)
    .map((m) => text(m.blocks))
    .join('\n');
}

async function live(namespace: string): Promise<string[]> {
  const kinds = [
    ['v1', 'ConfigMap'],
    ['v1', 'Secret'],
    ['v1', 'Service'],
    ['apps/v1', 'Deployment'],
  ] as const;
  const lists = await Promise.all(
    kinds.map(([apiVersion, kind]) => cluster.list({ apiVersion, kind, namespace })),
  );
  return lists
    .flat()
    .filter((o) => isTrackedBy(o, namespace))
    .map((o) => `${o.kind}/${o.metadata.name}`)
    .sort();
}

/** `DELETE` requests the simulator served for `namespace`, in order, as `kind-plural/name?query`. */
function deletes(namespace: string): string[] {
  const marker = `/namespaces/${namespace}/`;
  return sim.requests
    .filter((r) => r.method === 'DELETE' && r.path.includes(marker))
    .map((r) => r.path.slice(r.path.indexOf(marker) + marker.length));
}

const EVERYTHING = [
  'ConfigMap/keep-me',
  'ConfigMap/settings',
  'Deployment/web',
  'Secret/helm-kept',
  'Service/web',
];
const KEPT = ['ConfigMap/keep-me', 'Secret/helm-kept'];

// Each test syncs first and then deletes through the channel's ~1 msg/s pacing: more than the default 60 s under load.
describe('/sync delete', { timeout: 150_000 }, () => {
  it('with the foreground finalizer deletes wave 1, then 0, then -1 with Foreground propagation, keeps Delete=false and helm keep, then removes the Application object', async () => {
    await installApplicationCrd(cluster, sim);
    await syncFirst('shop');
    expect(await live('shop')).toEqual(EVERYTHING);
    await cluster.apply(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'argocd' } },
      { dryRun: false, force: true },
    );
    const appRef = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      namespace: 'argocd',
      name: 'shop',
    };
    await waitUntil(
      async () => (await cluster.discover('argoproj.io/v1alpha1', 'Application')) !== undefined,
    );
    await cluster.apply(
      {
        ...appRef,
        metadata: { name: 'shop', namespace: 'argocd', finalizers: [FOREGROUND] },
        spec: { project: 'default' },
      } as KubeObject,
      { dryRun: false, force: true },
    );

    const confirmation = await requestDeletion('shop', 'del-shop');

    expect(confirmation.text).toContain('Delete shop?');
    expect(confirmation.text).toContain('🗑 wave 1 · 1 resource: Service/web');
    expect(confirmation.text).toContain('🗑 wave 0 · 1 resource: Deployment/web');
    expect(confirmation.text).toContain('🗑 wave -1 · 1 resource: ConfigMap/settings');
    expect(confirmation.text).toMatch(/kept · ConfigMap\/keep-me — .*Delete=false/);
    expect(confirmation.text).toMatch(/kept · Secret\/helm-kept — .*helm.sh\/resource-policy: keep/);
    expect(deletes('shop')).toEqual([]);

    const before = await click(DELETE_CONFIRM_ACTION_ID, confirmation.value, 'del-shop');
    const header = await headerAfter(before, (t) => t.includes('Deleted shop'));

    expect(await live('shop')).toEqual(KEPT);
    expect(deletes('shop')).toEqual([
      'services/web?propagationPolicy=Foreground',
      'deployments/web?propagationPolicy=Foreground',
      'configmaps/settings?propagationPolicy=Foreground',
    ]);
    expect(await cluster.get(appRef)).toBeUndefined();
    await slack.waitFor(() => threadText(header.ts).includes('🗑 Deleted shop'), 60_000);
    const thread = threadText(header.ts);
    expect(thread).toContain('🗑 wave 1 · 1 resource deleted: Service/web (Foreground)');
    expect(thread).toContain('🗑 wave 0 · 1 resource deleted: Deployment/web (Foreground)');
    expect(thread).toContain('🗑 wave -1 · 1 resource deleted: ConfigMap/settings (Foreground)');
    expect(thread).toMatch(/kept · ConfigMap\/keep-me — .*Delete=false/);
    expect(thread).toContain('Application object removed from the cluster');
    expect(thread).toContain('stays in the wavesync.yaml registry');
    expect(thread.indexOf('wave 1 ·')).toBeLessThan(thread.indexOf('wave 0 ·'));
  });

  it('with the /background finalizer deletes with Background propagation', async () => {
    await syncFirst('shop-bg');

    const confirmation = await requestDeletion('shop-bg', 'del-bg');
    expect(confirmation.text).toContain('Cascade: background (Background propagation)');
    const before = await click(DELETE_CONFIRM_ACTION_ID, confirmation.value, 'del-bg');
    await headerAfter(before, (t) => t.includes('Deleted shop-bg'));

    expect(await live('shop-bg')).toEqual(KEPT);
    expect(deletes('shop-bg')).toEqual([
      'services/web?propagationPolicy=Background',
      'deployments/web?propagationPolicy=Background',
      'configmaps/settings?propagationPolicy=Background',
    ]);
  });

  it('without a resources finalizer removes only the Application: every resource stays and is reported as orphaned', async () => {
    await syncFirst('shop-orphan');

    const confirmation = await requestDeletion('shop-orphan', 'del-orphan');
    expect(confirmation.text).toContain('Only the Application goes');
    const before = await click(DELETE_CONFIRM_ACTION_ID, confirmation.value, 'del-orphan');
    const header = await headerAfter(before, (t) => t.includes('Deleted shop-orphan'));

    expect(await live('shop-orphan')).toEqual(EVERYTHING);
    expect(deletes('shop-orphan')).toEqual([]);
    await slack.waitFor(() => threadText(header.ts).includes('🗑 Deleted shop-orphan'), 60_000);
    expect(threadText(header.ts)).toMatch(/kept · .*Deployment\/web.* — orphaned/);
  });

  it('Cancel deletes nothing and queues nothing', async () => {
    await syncFirst('shop-cancel');
    const confirmation = await requestDeletion('shop-cancel --cascade=background', 'del-cancel');

    const before = await click(DELETE_CANCEL_ACTION_ID, confirmation.value, 'del-cancel');

    const cancelled = await slack.waitFor(() =>
      slack.responseUrlPosts('del-cancel').find((p) => text(p.body.blocks).includes('Cancelled')),
    );
    expect(cancelled.body.replace_original).toBe(true);
    expect(slack.channelMessages(CHANNEL).slice(before)).toEqual([]);
    expect(await live('shop-cancel')).toEqual(EVERYTHING);
  });

  it('in production waits for approval: the requester cannot approve, a second user’s Approve runs it', async () => {
    await syncFirstApproved('shop-prod');
    const confirmation = await requestDeletion('shop-prod', 'del-prod');
    const before = await click(DELETE_CONFIRM_ACTION_ID, confirmation.value, 'del-prod');
    const approval = await headerAfter(before, (t) => t.includes('needs approval') && t.includes('Delete'));
    expect(text(approval.blocks)).toContain('🗑 wave 1 · 1 resource: Service/web');
    await new Promise((r) => setTimeout(r, 300));
    expect(await live('shop-prod')).toEqual(EVERYTHING);

    const value = buttons(approval.blocks).find((b) => b.action_id === APPROVE_ACTION_ID)!.value!;
    await decide(APPROVE_ACTION_ID, value, approval.ts, PAT);
    await new Promise((r) => setTimeout(r, 300));
    expect(await live('shop-prod')).toEqual(EVERYTHING);

    await decide(APPROVE_ACTION_ID, value, approval.ts, SAM);
    await slack.waitFor(
      () => text(slack.message(CHANNEL, approval.ts)!.blocks).includes('Deleted shop-prod'),
      60_000,
    );
    expect(await live('shop-prod')).toEqual(KEPT);
    const audit = await redis.xrange(`${prefix}:audit:shop-prod`, '-', '+');
    const types = audit.map(
      ([, f]) => `${f[f.indexOf('type') + 1]}${f.includes('operation') ? ':delete' : ''}`,
    );
    expect(types).toEqual(
      expect.arrayContaining(['requested:delete', 'approved', 'queued:delete', 'outcome:delete']),
    );
  });

  it('in production a Reject deletes nothing', async () => {
    await syncFirstApproved('shop-rejected');
    const confirmation = await requestDeletion('shop-rejected', 'del-rej');
    const before = await click(DELETE_CONFIRM_ACTION_ID, confirmation.value, 'del-rej');
    const approval = await headerAfter(before, (t) => t.includes('needs approval'));

    const value = buttons(approval.blocks).find((b) => b.action_id === REJECT_ACTION_ID)!.value!;
    await decide(REJECT_ACTION_ID, value, approval.ts, SAM);

    await slack.waitFor(() => text(slack.message(CHANNEL, approval.ts)!.blocks).includes('Rejected'), 30_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(await live('shop-rejected')).toEqual(EVERYTHING);
    expect(deletes('shop-rejected')).toEqual([]);
  });

  it('an unknown application gets "Did you mean" and nothing is planned or queued', async () => {
    const before = slack.channelMessages(CHANNEL).length;

    const ack = await command('delete shpo', 'del-unknown');

    expect(text(ack?.blocks)).toContain('No application named "shpo"');
    expect(text(ack?.blocks)).toContain('Did you mean');
    await new Promise((r) => setTimeout(r, 200));
    expect(slack.responseUrlPosts('del-unknown')).toEqual([]);
    expect(slack.channelMessages(CHANNEL).slice(before)).toEqual([]);
  });
});

describe('/sync delete: big plans, a changed cluster, and who may delete', { timeout: 150_000 }, () => {
  it('a big plan shortens the waves but always shows what is kept and the Delete=confirm objects, in the confirmation and the approval message', async () => {
    await syncFirstApproved('big-prod');
    expect(await live('big-prod')).toHaveLength(82);

    const confirmation = await requestDeletion('big-prod', 'del-big');
    expectWithinSlackLimits(confirmation.blocks);
    expect(confirmation.text).toContain('⚠️ Delete=confirm: ConfigMap/zz-confirm-me');
    expect(confirmation.text).toMatch(/kept · ConfigMap\/zz-keep — .*Delete=false/);
    expect(confirmation.text).toMatch(/… and \d+ more resources in \d+ waves/);
    expect(confirmation.text).toContain('🗑 wave 39 · 2 resources');

    const before = await click(DELETE_CONFIRM_ACTION_ID, confirmation.value, 'del-big');
    const approval = await headerAfter(before, (t) => t.includes('needs approval') && t.includes('big-prod'));
    const approvalText = text(approval.blocks);
    expectWithinSlackLimits(approval.blocks as Block[]);
    expect(approvalText).toContain('⚠️ Delete=confirm: ConfigMap/zz-confirm-me');
    expect(approvalText).toMatch(/kept · ConfigMap\/zz-keep — .*Delete=false/);
    expect(approvalText).toMatch(/… and \d+ more resources in \d+ waves/);

    const value = buttons(approval.blocks).find((b) => b.action_id === APPROVE_ACTION_ID)!.value!;
    await decide(APPROVE_ACTION_ID, value, approval.ts, SAM);
    await slack.waitFor(
      () => text(slack.message(CHANNEL, approval.ts)!.blocks).includes('Deleted big-prod'),
      60_000,
    );
    expect(await live('big-prod')).toEqual(['ConfigMap/zz-keep']);
  });

  it('runs only the plan that was confirmed: a deletion queued behind a sync that changed the cluster ends in Error and deletes nothing', async () => {
    const job = { apiVersion: 'batch/v1', kind: 'Job', namespace: 'busy', name: 'slow' };
    await command('busy', 'sync-busy');
    await waitUntil(async () => (await cluster.get(job)) !== undefined, 20_000);

    const confirmation = await requestDeletion('busy', 'del-busy');
    expect(confirmation.text).toContain('🗑 wave 0 · 1 resource: Job/slow');
    expect(await live('busy')).toEqual([]); // ConfigMap/one comes after the hook
    const before = await click(DELETE_CONFIRM_ACTION_ID, confirmation.value, 'del-busy');
    const header = await headerAfter(before, (t) => t.includes('busy') && t.includes('Error'));

    // The reporter posts the summary before it turns the header Error: it is in the thread already.
    await slack.waitFor(() => threadText(header.ts).includes('❌ Deleting busy Error'), 10_000);
    expect(threadText(header.ts)).toContain(
      'The cluster changed since the plan was confirmed (it would now delete ConfigMap/one, Job/slow); nothing was deleted. Run /sync delete busy again to see the new plan.',
    );
    expect(await live('busy')).toEqual(['ConfigMap/one']);
    expect(await cluster.get(job)).toBeDefined();
    expect(deletes('busy')).toEqual([]);
  });

  it.each([
    ['guarded', 'Only @U0SAM may delete guarded (restricted).'],
    ['elsewhere-app', 'elsewhere-app (elsewhere) can only be deleted from #C0OTHER.'],
    ['frozen-app', 'Sync of frozen-app is frozen until'],
  ])(
    'shows %s neither plan nor Delete button when the request policy refuses it (%s)',
    async (app, refusal) => {
      const before = slack.channelMessages(CHANNEL).length;
      const auditBefore = await redis.xlen(`${prefix}:audit:${app}`);

      await command(`delete ${app}`, `del-refused-${app}`);

      const post = await slack.waitFor(
        () =>
          slack
            .responseUrlPosts(`del-refused-${app}`)
            .find((p) => JSON.stringify(p.body).includes(refusal.slice(0, 20))),
        10_000,
      );
      expect(text(post.body.blocks)).toContain(refusal);
      await new Promise((r) => setTimeout(r, 300));
      const posts = slack.responseUrlPosts(`del-refused-${app}`);
      expect(posts.flatMap((p) => buttons(p.body.blocks))).toEqual([]);
      expect(posts.map((p) => text(p.body.blocks)).join('\n')).not.toContain('Cascade:');
      expect(slack.channelMessages(CHANNEL).slice(before)).toEqual([]);
      expect(await redis.xlen(`${prefix}:audit:${app}`)).toBe(auditBefore);
    },
  );

  it('a freeze lets the plan through with --break-glass "reason"', async () => {
    const confirmation = await requestDeletion('frozen-app --break-glass "INC-9 cleanup"', 'del-frozen-bg');
    expect(confirmation.text).toContain('Delete frozen-app?');
  });
});

/** Slack's limits: ≤ 50 blocks, ≤ 3000 characters in a section's text. */
function expectWithinSlackLimits(blocks: readonly Block[]): void {
  expect(blocks.length).toBeLessThanOrEqual(50);
  for (const block of blocks as { type: string; text?: { text: string } }[]) {
    if (block.type === 'section') expect(block.text!.text.length).toBeLessThanOrEqual(3000);
  }
}

/** Production syncs need approval too: request, and approve as @sam. */
async function syncFirstApproved(app: string): Promise<void> {
  const before = slack.channelMessages(CHANNEL).length;
  await command(app, `sync-${app}`);
  const approval = await headerAfter(before, (t) => t.includes('needs approval'));
  const value = buttons(approval.blocks).find((b) => b.action_id === APPROVE_ACTION_ID)!.value!;
  await decide(APPROVE_ACTION_ID, value, approval.ts, SAM);
  await slack.waitFor(() => slack.message(CHANNEL, approval.ts)!.text.includes('Succeeded'), 60_000);
}

async function decide(actionId: string, value: string, messageTs: string, userId: string): Promise<void> {
  const delivery = await bot.sendBlockAction({ actionId, value, userId, channelId: CHANNEL, messageTs });
  expect(delivery.status).toBe(200);
}

async function waitUntil(probe: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('waitUntil timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
