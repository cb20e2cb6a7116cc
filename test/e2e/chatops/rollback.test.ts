/**
 * Rollback from chat end to end (issue 17), through the composition root (`startWavesync('serve')`: bot + worker),
 * signed Slack requests to the bot, the fake Slack Web API, the Kubernetes API simulator over HTTP (client-node),
 * the real BullMQ queue on the real Redis, and a real git repository served over file://. Nothing is mocked.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import { loadConfig } from '../../../src/config.js';
import { FakeSlackApi } from '../../../src/demo/fake-slack/fake-slack-api.js';
import { SignedSlackClient } from '../../../src/demo/fake-slack/slack-client.js';
import { removeRedisPrefix } from '../../../src/demo/remove-redis-prefix.js';
import { createLogger } from '../../../src/logger.js';
import { type RunningWavesync, startWavesync } from '../../../src/main/start-wavesync.js';
import { createSyncQueue, type HistoryEntry, type SyncQueue } from '../../../src/queue/index.js';
import { renderBlocksAsText } from '../../../src/slack/messages/render-blocks-as-text.js';
import { ROLLBACK_ACTION_ID } from '../../../src/slack/messages/rollback-button.js';
import { waitFor } from '../../integration/support/queue-test-env.js';
import { createGitFixture, type GitFixture } from '../../support/git-fixture.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const CHANNEL = 'C0WEB';
const USERS = { U0PAT: 'pat', U0LEE: 'lee' } as const;
type UserId = keyof typeof USERS;

function settings(cacheDir: string): string {
  return `
applications:
  - directory: applications
defaults:
  healthTimeoutSeconds: 15
  gitCacheDir: ${cacheDir}
  driftDetection: { enabled: false }
environments:
  staging:
    permissions:
      rollback: { users: [U0PAT] }
`;
}

function application(name: string, source: string, automated = false): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${name}
  namespace: argocd
  labels: { wavesync.io/environment: staging }
spec:
  project: default
  source: ${source}
  destination: { server: https://kubernetes.default.svc, namespace: ${name} }
  syncPolicy:
    syncOptions: [CreateNamespace=true]
${automated ? '    automated: { prune: true }\n' : ''}`;
}

function manifests(version: string, image: string): Record<string, string> {
  return {
    'web/config.yaml': `apiVersion: v1
kind: ConfigMap
metadata: { name: web-config }
data: { version: "${version}" }
`,
    'web/deployment.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: 1
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
        - { name: web, image: "${image}" }
`,
  };
}

let sim: Simulator;
let slack: FakeSlackApi;
let serve: RunningWavesync;
let queue: SyncQueue;
let client: SignedSlackClient;
let git: GitFixture;
let apps: AppsV1Api;
let core: CoreV1Api;
let dir: string;
const prefix = `wavesync-rollback-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  sim = await startSimulator({ speed: 20 });
  slack = await FakeSlackApi.start({
    postIntervalMs: 1,
    burst: 1000,
    users: Object.entries(USERS).map(([id, name]) => ({ id, name })),
  });
  git = await createGitFixture();
  dir = await mkdtemp(path.join(tmpdir(), 'wavesync-rollback-'));
  await mkdir(path.join(dir, 'applications'));
  await mkdir(path.join(dir, 'local/web'), { recursive: true });
  await writeFile(path.join(dir, 'wavesync.yaml'), settings(path.join(dir, 'git-cache')));
  const gitSource = `{ repoURL: "${git.url}", path: web, targetRevision: main }`;
  await writeFile(path.join(dir, 'applications/web.yaml'), application('web', gitSource));
  await writeFile(path.join(dir, 'applications/auto.yaml'), application('auto', gitSource, true));
  await writeFile(
    path.join(dir, 'applications/local.yaml'),
    application('local', '{ repoURL: "", path: local/web }'),
  );
  const kubeconfigFile = path.join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfigFile);
  const secret = randomUUID();
  const config = loadConfig({
    REDIS_URL,
    PORT: '0',
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_SIGNING_SECRET: secret,
    SLACK_API_URL: slack.apiUrl,
    KUBECONFIG: kubeconfigFile,
    WAVESYNC_CONFIG: path.join(dir, 'wavesync.yaml'),
    WAVESYNC_QUEUE_PREFIX: prefix,
  });
  serve = await startWavesync('serve', {
    config,
    logger: createLogger({ level: (process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent' }),
    host: '127.0.0.1',
  });
  client = new SignedSlackClient(`http://127.0.0.1:${serve.port}`, secret);
  queue = createSyncQueue({ connection: { url: REDIS_URL }, prefix });
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigFile);
  apps = kc.makeApiClient(AppsV1Api);
  core = kc.makeApiClient(CoreV1Api);
}, 60_000);

afterAll(async () => {
  await queue?.close();
  await serve?.close({ graceMs: 1000 });
  await slack?.close();
  await sim?.stop();
  await git?.cleanup();
  await removeRedisPrefix(REDIS_URL, prefix);
  await rm(dir, { recursive: true, force: true });
});

/** Send `/sync <text>` signed as Slack does, from the web channel; resolves with the ack's text (ephemeral reply). */
async function command(text: string, userId: UserId = 'U0PAT'): Promise<string> {
  const delivery = await client.sendCommand({
    text,
    userId,
    userName: USERS[userId],
    channelId: CHANNEL,
    responseUrl: slack.responseUrl(CHANNEL),
  });
  expect(delivery.status).toBe(200);
  if (!delivery.body) return '';
  const body = JSON.parse(delivery.body) as {
    text?: string;
    blocks?: Parameters<typeof renderBlocksAsText>[0];
  };
  return body.blocks ? renderBlocksAsText(body.blocks) : (body.text ?? '');
}

/** Wait until `app` has `count` finished operations and nothing queued; resolves with the history, newest first. */
function finished(app: string, count: number): Promise<HistoryEntry[]> {
  return waitFor(
    async () => {
      const [history, line] = await Promise.all([queue.history(app), queue.applicationStatus(app)]);
      return history.length >= count && line.length === 0 && history;
    },
    60_000,
    `${count} finished operations of ${app}`,
  );
}

/** The ephemeral replies (response_url posts and ack bodies are both recorded by the fake) as text, oldest first. */
function ephemeralTexts(): string[] {
  return slack.responseUrlPosts(CHANNEL).map((p) => {
    const blocks = p.body.blocks as Parameters<typeof renderBlocksAsText>[0] | undefined;
    return blocks ? renderBlocksAsText(blocks) : String(p.body.text ?? '');
  });
}

const text = (ts: string, channel = CHANNEL) =>
  renderBlocksAsText((slack.message(channel, ts)?.blocks ?? []) as Parameters<typeof renderBlocksAsText>[0]);
const roots = () => slack.channelMessages(CHANNEL).filter((m) => !m.threadTs);

async function liveConfigVersion(): Promise<string | undefined> {
  return (await core.readNamespacedConfigMap({ name: 'web-config', namespace: 'web' })).data?.version;
}
async function liveImage(): Promise<string | undefined> {
  return (await apps.readNamespacedDeployment({ name: 'web', namespace: 'web' })).spec?.template.spec
    ?.containers[0]?.image;
}

describe('test/e2e/chatops/rollback', () => {
  let first: string;
  let second: string;

  it('when two git revisions were synced, then /sync history shows ids and /sync rollback restores the old objects', async () => {
    first = await git.commit(manifests('1', 'nginx:1.25'), 'v1');
    await command('web');
    await finished('web', 1);
    second = await git.commit(manifests('2', 'nginx:1.27'), 'v2');
    // Another command than the first (the same one within 60 s is "Already requested").
    await command('web --revision main');
    const synced = await finished('web', 2);
    expect(synced.map((e) => [e.id, e.phase, e.revision])).toEqual([
      [2, 'Succeeded', second],
      [1, 'Succeeded', first],
    ]);
    expect(await liveConfigVersion()).toBe('2');

    await command('history web');
    const history = await slack.waitFor(() =>
      ephemeralTexts().find((t) => t.startsWith('Last 2 syncs of web')),
    );
    expect(history).toContain(`#2 `);
    expect(history).toContain(`#1 `);
    expect(history).toContain(second.slice(0, 7));

    await command('rollback web');
    const [rollback] = await finished('web', 3);
    expect(rollback).toMatchObject({
      id: 3,
      phase: 'Succeeded',
      revision: first,
      rollback: { id: 1, revision: first },
    });
    expect(await liveConfigVersion()).toBe('1');
    expect(await liveImage()).toBe('nginx:1.25');
    const header = roots().find((m) => text(m.ts).includes('Rollback to'));
    expect(header && text(header.ts)).toContain(`Rollback to ${first.slice(0, 7)} (#1)`);
    expect(header && text(header.ts)).toContain('/sync rollback web 1');
  }, 120_000);

  it('when the app has automated sync or a local folder source, or the id is not a Succeeded entry, then the rollback is refused in an ephemeral reply', async () => {
    const before = roots().length;
    expect(await command('rollback auto')).toContain(
      'auto has automated sync (spec.syncPolicy.automated), so it cannot be rolled back',
    );
    expect(await command('rollback local')).toContain(
      'local is read from a local folder (empty repoURL), which has no revisions to roll back to',
    );
    expect(await command('rollback web 99')).toContain('History has no entry #99 (newest: #3, #2, #1)');
    expect(await command('rollback web 2 extra')).toContain('Too many words: extra.');
    expect(roots().length).toBe(before);
    expect(await queue.history('auto')).toEqual([]);
  });

  it('when a sync fails, then its summary carries Roll back; only a user the rollback permission allows may use it, and it returns to the last good revision', async () => {
    const bad = await git.commit(
      { 'web/config.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: Bad_Name }\n' },
      'bad',
    );
    // Another command than the first test's `/sync web` (the same one within 60 s is "Already requested").
    const ack = await command(`web --revision ${bad}`);
    const [failed] = await finished('web', 4).catch(async (err: Error) => {
      throw new Error(`${err.message}; ack: ${ack}; history: ${JSON.stringify(await queue.history('web'))}`);
    });
    expect(failed?.phase).not.toBe('Succeeded');
    const header = roots().find((m) => text(m.ts).includes(`/sync web --revision ${bad}`));
    expect(header).toBeDefined();
    const thread = slack.thread(CHANNEL, header!.ts);
    const summary = thread.find((m) =>
      (m.blocks as { type: string; elements?: { action_id?: string }[] }[]).some((b) =>
        b.elements?.some((e) => e.action_id === ROLLBACK_ACTION_ID),
      ),
    );
    expect(summary, `no Roll back button in ${JSON.stringify(thread.map((m) => m.text))}`).toBeDefined();
    const value = (summary!.blocks as { elements?: { action_id?: string; value?: string }[] }[])
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === ROLLBACK_ACTION_ID)?.value;

    const click = (userId: UserId) =>
      client.sendBlockAction({
        actionId: ROLLBACK_ACTION_ID,
        userId,
        userName: USERS[userId],
        channelId: CHANNEL,
        messageTs: summary!.ts,
        value: value ?? '',
        responseUrl: slack.responseUrl(CHANNEL),
      });
    const rootsBefore = roots().length;
    await click('U0LEE');
    await slack.waitFor(() => ephemeralTexts().some((t) => t.includes('🚫') && t.includes('roll')));
    expect(roots().length).toBe(rootsBefore);

    await click('U0PAT');
    const [rolledBack] = await finished('web', 5);
    // The newest Succeeded entry before the failure is #3 (the rollback to the first revision).
    expect(rolledBack).toMatchObject({ phase: 'Succeeded', rollback: { id: 3, revision: first } });
    expect(await liveConfigVersion()).toBe('1');
  }, 120_000);
});
