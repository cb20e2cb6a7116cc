/**
 * Sync on push end to end (issue 31), through the composition root (`startWavesync('serve')`: bot + worker), with a
 * real git repository served over file:// (test/support/git-fixture.ts), the Kubernetes API simulator, the fake
 * Slack Web API, and the real BullMQ queue on the real Redis:
 *
 * - polling every second (`defaults.reconciliation.timeoutSeconds: 1`): a never-synced automated Application is
 *   synced at the first poll, a production one gets an approval request instead; a commit moves the automated
 *   Application within one poll; a not-automated one gets one "main moved" message whose Sync button syncs it;
 * - polling off (`timeoutSeconds: 0`): a signed GitHub push webhook moves the automated Application within 5 s; a
 *   forged one (401), one from a host without a secret (403), a replayed delivery and an oversized body move nothing.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVE_ACTION_ID } from '../../../src/environments/index.js';
import { renderBlocksAsText } from '../../../src/slack/messages/render-blocks-as-text.js';
import { REVISION_SYNC_ACTION_ID } from '../../../src/slack/messages/revision-notice-blocks.js';
import { waitFor } from '../../integration/support/queue-test-env.js';
import { createGitFixture, type GitFixture } from '../../support/git-fixture.js';
import { type ServeStack, startServeStack } from '../support/serve-stack.js';

const CHANNELS = { auto: 'C0AUTO', prod: 'C0PROD', manual: 'C0MANUAL' } as const;
const SECRET = 'webhook-s3cret';
const USERS = { U0PAT: 'pat', U0SAM: 'sam' };

const configMap = (value: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings }\ndata: { value: "${value}" }\n`;

function settings(git: GitFixture, timeoutSeconds: number): string {
  return `applications: [{ directory: applications }]
defaults:
  gitCacheDir: ${path.join(git.root, `cache-${randomUUID().slice(0, 6)}`)}
  healthTimeoutSeconds: 15
  driftDetection: { intervalSeconds: 3600 }
  reconciliation: { timeoutSeconds: ${timeoutSeconds}, jitterSeconds: 0 }
environments:
  production:
    requireApproval: true
    approvers: { users: [U0SAM] }
    requesters: { users: [U0PAT, U0SAM] }
  staging: {}
webhook: { github: { secretFile: github-webhook-secret } }
`;
}

function application(git: GitFixture, name: keyof typeof CHANNELS, environment: string, automated: boolean) {
  return `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${name}
  namespace: argocd
  labels: { wavesync.io/environment: ${environment} }
  annotations: { wavesync.io/channel: ${CHANNELS[name]} }
spec:
  project: default
  source: { repoURL: "${git.url}", path: app, targetRevision: main }
  destination: { server: https://kubernetes.default.svc, namespace: ${name} }
  syncPolicy:
    syncOptions: [CreateNamespace=true]
${automated ? '    automated: { prune: true }\n' : ''}`;
}

async function stackFor(git: GitFixture, timeoutSeconds: number): Promise<ServeStack> {
  return startServeStack({
    settings: settings(git, timeoutSeconds),
    files: {
      'applications/auto.yaml': application(git, 'auto', 'staging', true),
      'applications/prod.yaml': application(git, 'prod', 'production', true),
      'applications/manual.yaml': application(git, 'manual', 'staging', false),
      'github-webhook-secret': `${SECRET}\n`,
    },
    users: USERS,
  });
}

const short = (sha: string) => sha.slice(0, 7);

function roots(stack: ServeStack, channel: string) {
  return stack.slack.channelMessages(channel).filter((m) => !m.threadTs);
}

type BlockJson = { type: string; elements?: { value?: string; action_id?: string }[] };
function buttonsOf(stack: ServeStack, channel: string, ts: string) {
  const blocks = stack.slack.message(channel, ts)?.blocks as BlockJson[] | undefined;
  return (blocks ?? []).filter((b) => b.type === 'actions').flatMap((b) => b.elements ?? []);
}

/** `/sync <text>` by U0PAT in the auto app's channel; resolves with every reply (ack and response_url) as text. */
async function reply(stack: ServeStack, text: string): Promise<string> {
  const before = stack.slack.responseUrlPosts(CHANNELS.auto).length;
  const ack = await stack.command(text, CHANNELS.auto, 'U0PAT');
  const posts = await stack.slack
    .waitFor(() => {
      const all = stack.slack.responseUrlPosts(CHANNELS.auto).slice(before);
      return all.length > 0 && all;
    }, 5_000)
    .catch(() => []);
  const texts = posts.map(
    (p) =>
      renderBlocksAsText((p.body.blocks ?? []) as Parameters<typeof renderBlocksAsText>[0]) ||
      String(p.body.text ?? ''),
  );
  return [ack, ...texts].join('\n');
}

async function historyWith(stack: ServeStack, app: string, revision: string, timeoutMs = 60_000) {
  return waitFor(
    async () => (await stack.queue.history(app, 20)).find((e) => e.revision === revision),
    timeoutMs,
    `a finished sync of ${app} at ${short(revision)}`,
  );
}

describe('test/e2e/revisions/sync-on-push: polling', () => {
  let git: GitFixture;
  let stack: ServeStack;
  let first: string;

  beforeAll(async () => {
    git = await createGitFixture();
    first = await git.commit({ 'app/cm.yaml': configMap('one') }, 'first');
    stack = await stackFor(git, 1);
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
    await git?.cleanup();
  });

  it('syncs a never-synced automated app at the first poll (announced), and asks approval for a production one', async () => {
    const entry = await historyWith(stack, 'auto', first);
    expect(entry).toMatchObject({ phase: 'Succeeded', trigger: `first automated sync of ${short(first)}` });
    expect(entry.initiator.userId).toBe('wavesync (automated)');
    const header = roots(stack, CHANNELS.auto)[0]!;
    expect(stack.text(CHANNELS.auto, header.ts)).toContain(
      `triggered by first automated sync of ${short(first)}`,
    );

    const approval = await stack.slack.waitFor(
      () =>
        roots(stack, CHANNELS.prod).find((m) =>
          buttonsOf(stack, CHANNELS.prod, m.ts).some((b) => b.action_id === APPROVE_ACTION_ID),
        ),
      15_000,
    );
    expect(await stack.queue.applicationStatus('prod')).toEqual([]);
    expect(await stack.queue.history('prod')).toEqual([]);
    // The not-automated app is neither synced nor announced: nothing moved yet.
    expect(roots(stack, CHANNELS.manual)).toEqual([]);

    // Approved, it runs as the automated sync it is, and says why in its history.
    const approve = buttonsOf(stack, CHANNELS.prod, approval.ts).find(
      (b) => b.action_id === APPROVE_ACTION_ID,
    )!;
    const click = await stack.client.sendBlockAction({
      actionId: APPROVE_ACTION_ID,
      userId: 'U0SAM',
      userName: 'sam',
      channelId: CHANNELS.prod,
      messageTs: approval.ts,
      value: approve.value!,
      responseUrl: stack.slack.responseUrl(CHANNELS.prod),
    });
    expect(click.status).toBe(200);
    const approved = await historyWith(stack, 'prod', first);
    expect(approved).toMatchObject({
      phase: 'Succeeded',
      trigger: `first automated sync of ${short(first)}`,
      initiator: { userId: 'wavesync (automated)' },
    });
  }, 90_000);

  it('moves the automated app to a new commit within one poll; the not-automated app gets one "main moved" message', async () => {
    const headersBefore = roots(stack, CHANNELS.auto).length;
    const pushedAt = Date.now();
    const second = await git.commit({ 'app/cm.yaml': configMap('two') }, 'Bump the value');
    // Announced (header posted, sync queued) within one poll interval (1 s, plus the lease and the git round trip).
    await stack.slack.waitFor(() => roots(stack, CHANNELS.auto).length > headersBefore || undefined, 5_000);
    expect(Date.now() - pushedAt).toBeLessThan(5_000);
    const header = roots(stack, CHANNELS.auto).at(-1)!;
    expect(stack.text(CHANNELS.auto, header.ts)).toContain(
      `triggered by new revision ${short(second)} (poll)`,
    );
    const entry = await historyWith(stack, 'auto', second);
    expect(entry).toMatchObject({ phase: 'Succeeded', trigger: `new revision ${short(second)} (poll)` });
    const live = await stack.core.readNamespacedConfigMap({ name: 'settings', namespace: 'auto' });
    expect(live.data?.value).toBe('two');

    const notice = await stack.slack.waitFor(() => roots(stack, CHANNELS.manual)[0], 5_000);
    const text = stack.text(CHANNELS.manual, notice.ts);
    expect(text).toContain(
      `main moved to ${short(second)} (by wavesync-test: "Bump the value"), 1 file changed`,
    );
    expect(buttonsOf(stack, CHANNELS.manual, notice.ts).map((b) => b.action_id)).toEqual([
      REVISION_SYNC_ACTION_ID,
      'wavesync_revision_diff',
    ]);
    // Polls go on; the message is not repeated, and the production app has still queued nothing.
    await new Promise((r) => setTimeout(r, 2500));
    expect(roots(stack, CHANNELS.manual)).toHaveLength(1);
    expect((await stack.queue.history('prod')).map((e) => e.revision)).not.toContain(second);
    expect(await stack.queue.applicationStatus('prod')).toEqual([]);
    // `/sync history` and `/sync audit` say why the automated syncs started.
    expect(await reply(stack, 'history auto')).toContain(`triggered by new revision ${short(second)} (poll)`);
    expect(await reply(stack, 'audit auto')).toContain(
      `automated-sync — via new revision ${short(second)} (poll)`,
    );

    // Its Diff button is `/sync diff manual --revision <sha>`, ephemeral: the ConfigMap it would create.
    const diffsBefore = stack.slack.responseUrlPosts(CHANNELS.manual).length;
    const [sync, diff] = buttonsOf(stack, CHANNELS.manual, notice.ts);
    const diffClick = await stack.client.sendBlockAction({
      actionId: 'wavesync_revision_diff',
      userId: 'U0PAT',
      userName: 'pat',
      channelId: CHANNELS.manual,
      messageTs: notice.ts,
      value: diff!.value!,
      responseUrl: stack.slack.responseUrl(CHANNELS.manual),
    });
    expect(diffClick.status).toBe(200);
    const diffReply = await stack.slack.waitFor(
      () => stack.slack.responseUrlPosts(CHANNELS.manual).slice(diffsBefore)[0],
      15_000,
    );
    expect(JSON.stringify(diffReply.body)).toContain('settings');

    // Its Sync button is a person's /sync of that revision.
    const click = await stack.client.sendBlockAction({
      actionId: REVISION_SYNC_ACTION_ID,
      userId: 'U0PAT',
      userName: 'pat',
      channelId: CHANNELS.manual,
      messageTs: notice.ts,
      value: sync!.value!,
      responseUrl: stack.slack.responseUrl(CHANNELS.manual),
    });
    expect(click.status).toBe(200);
    const synced = await historyWith(stack, 'manual', second);
    expect(synced).toMatchObject({ phase: 'Succeeded', initiator: { userId: 'U0PAT' } });
  }, 120_000);
});

describe('test/e2e/revisions/sync-on-push: webhooks', () => {
  let git: GitFixture;
  let stack: ServeStack;
  let base: string;
  const payload = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, '../../fixtures/webhooks/github-push.json'), 'utf8'),
  ) as Record<string, unknown>;

  /** The documented GitHub push payload, about this repository and `sha`. */
  const pushOf = (sha: string) =>
    Buffer.from(
      JSON.stringify({
        ...payload,
        after: sha,
        head_commit: { ...(payload.head_commit as object), id: sha },
        repository: { ...(payload.repository as object), clone_url: git.url, html_url: git.url },
      }),
    );
  const post = (body: Buffer, headers: Record<string, string>) =>
    fetch(`http://127.0.0.1:${stack.serve.port}/api/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  const signed = (body: Buffer, delivery: string, secret = SECRET) => ({
    'x-github-event': 'push',
    'x-github-delivery': delivery,
    'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
  });

  beforeAll(async () => {
    git = await createGitFixture();
    base = await git.commit({ 'app/cm.yaml': configMap('one') }, 'first');
    stack = await stackFor(git, 0);
    // Polling is off: one poll by hand sees the baseline and syncs the never-synced automated app.
    await stack.serve.revisions!.poll();
    await historyWith(stack, 'auto', base);
  }, 90_000);

  afterAll(async () => {
    await stack?.close();
    await git?.cleanup();
  });

  it('a signed GitHub push moves the automated app within 5 s', async () => {
    const sha = await git.commit({ 'app/cm.yaml': configMap('pushed') }, 'pushed');
    const body = pushOf(sha);
    const sentAt = Date.now();
    const res = await post(body, signed(body, 'delivery-1'));
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({
      status: 'accepted',
      provider: 'GitHub',
      applications: ['auto', 'manual', 'prod'],
    });
    await waitFor(
      async () => {
        const [line, history] = await Promise.all([
          stack.queue.applicationStatus('auto'),
          stack.queue.history('auto'),
        ]);
        return [...line.map((j) => j.operation.revision), ...history.map((e) => e.revision)].includes(sha);
      },
      5_000,
      'the pushed revision queued',
    );
    expect(Date.now() - sentAt).toBeLessThan(5_000);
    const entry = await historyWith(stack, 'auto', sha);
    expect(entry.trigger).toBe(`push ${short(sha)} from GitHub`);

    // The same delivery again is a duplicate; the same push under a new id finds nothing moved.
    const again = await post(body, signed(body, 'delivery-1'));
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ status: 'duplicate' });
    expect((await post(body, signed(body, 'delivery-2'))).status).toBe(202);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await stack.queue.history('auto')).filter((e) => e.revision === sha)).toHaveLength(1);
    expect(await stack.queue.applicationStatus('auto')).toEqual([]);
  }, 90_000);

  it("a forged, an unconfigured host's, or an oversized webhook moves nothing", async () => {
    const sha = await git.commit({ 'app/cm.yaml': configMap('forged') }, 'forged');
    const body = pushOf(sha);
    const forged = await post(body, signed(body, 'delivery-3', 'not-the-secret'));
    expect(forged.status).toBe(401);
    const unsigned = await post(body, { 'x-github-event': 'push', 'x-github-delivery': 'delivery-4' });
    expect(unsigned.status).toBe(401);
    const gitlab = await post(body, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': SECRET });
    expect(gitlab.status).toBe(403);
    expect(await gitlab.text()).toContain('WAVESYNC_WEBHOOK_GITLAB_SECRET');
    const huge = Buffer.alloc(1024 * 1024 + 10, 0x20);
    expect((await post(huge, signed(huge, 'delivery-5'))).status).toBe(413);
    await new Promise((r) => setTimeout(r, 2000));
    const history = await stack.queue.history('auto');
    expect(history.map((e) => e.revision)).not.toContain(sha);
    expect(await stack.queue.applicationStatus('auto')).toEqual([]);
  }, 60_000);
});
