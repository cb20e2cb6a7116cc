/**
 * Harness for App of Apps tests: the demo environment (Kubernetes API simulator over HTTP, fake Slack API, a
 * unique Redis key prefix) with `wavesync serve` in this process, a signed `/sync`, and readers for the parent's
 * thread, the children's history and their resources in the simulator. Also writes private wavesync.yaml variants
 * (a parent with a child that ends Degraded) into a temporary folder.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { type ApplicationsFromSettings, applicationsFromSettings } from '../../../src/applications/index.js';
import { processEnvironment } from '../../../src/config.js';
import { targetPresence } from '../../../src/demo/cluster-matches-manifests.js';
import { type DemoEnvironment, startDemoEnvironment } from '../../../src/demo/demo-environment.js';
import { DEMO_USERS } from '../../../src/demo/demo-scenario.js';
import type { FakeMessage } from '../../../src/demo/fake-slack/fake-slack-api.js';
import { SignedSlackClient } from '../../../src/demo/fake-slack/slack-client.js';
import { removeRedisPrefix } from '../../../src/demo/remove-redis-prefix.js';
import type { Application } from '../../../src/domain/index.js';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';
import { loadKubeConfig } from '../../../src/kube/load-kube-config.js';
import { createLogger } from '../../../src/logger.js';
import { type RunningWavesync, startWavesync } from '../../../src/main/start-wavesync.js';
import { createSyncQueue, type HistoryEntry, type SyncQueue } from '../../../src/queue/index.js';
import { loadSettings, type Settings } from '../../../src/settings/index.js';
import type { Block } from '../../../src/slack/messages/block.js';
import { renderBlocksAsText } from '../../../src/slack/messages/render-blocks-as-text.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface AppOfAppsEnv {
  env: DemoEnvironment;
  serve: RunningWavesync;
  queue: SyncQueue;
  /** A Redis connection of the test (closed by close()). */
  redis: Redis;
  settings: Settings;
  apps: ApplicationsFromSettings;
  /** `/sync <app>` from `channel` as @pat. */
  sync(application: string, channel: string): Promise<void>;
  /** The header's thread replies as Slack shows them, one message per entry. */
  replies(channel: string): string[];
  /** Wait for the first history entry of `application`. */
  finished(application: string, timeoutMs: number): Promise<HistoryEntry>;
  /** Problems with the resources of a (child) Application in the simulator; [] when all are present. */
  resourceProblems(app: Application): Promise<string[]>;
  /** Stop serve and start it again (a worker stopped between children). */
  restartServe(): Promise<void>;
  close(): Promise<void>;
}

export async function startAppOfAppsEnv(options: { configFile?: string } = {}): Promise<AppOfAppsEnv> {
  const env = await startDemoEnvironment({
    redisEnv: { REDIS_URL },
    logLevel: 'info',
    ...(options.configFile ? { configFile: options.configFile } : {}),
  });
  const logger = createLogger({ level: 'info', destination: env.log });
  const start = () => startWavesync('serve', { config: env.config, logger, host: '127.0.0.1' });
  let serve = await start();
  const queue = createSyncQueue({ connection: { url: REDIS_URL }, prefix: env.config.queue.prefix });
  const settings = await loadSettings(env.config.configFile ?? '');
  const apps = await applicationsFromSettings(settings, { env: processEnvironment() });
  const { renderer } = apps;
  const redis = new Redis(REDIS_URL);
  const cluster = createKubeCluster(loadKubeConfig({ kubeconfig: env.kubeconfigFile }));
  const text = (m: FakeMessage) => (m.blocks.length ? renderBlocksAsText(m.blocks as Block[]) : m.text);
  const harness: AppOfAppsEnv = {
    env,
    get serve() {
      return serve;
    },
    queue,
    redis,
    settings,
    apps,
    async sync(application, channel) {
      const client = new SignedSlackClient(`http://127.0.0.1:${serve.port}`, env.signingSecret);
      const delivery = await client.sendCommand({
        text: application,
        channelId: channel,
        userId: DEMO_USERS.requester.id,
        userName: DEMO_USERS.requester.name,
        responseUrl: env.slack.responseUrl(channel),
      });
      if (delivery.status !== 200) throw new Error(`/sync ${application}: HTTP ${delivery.status}`);
    },
    replies(channel) {
      const root = env.slack.channelMessages(channel).find((m) => !m.threadTs);
      return root ? env.slack.thread(channel, root.ts).map(text) : [];
    },
    finished: (application, timeoutMs) => waitForHistory(queue, application, timeoutMs),
    async resourceProblems(app) {
      const rendered = await renderer.renderApplication(app);
      const live = await targetPresence(cluster, rendered.targets, app.destination.namespace ?? '');
      return live.problems;
    },
    async restartServe() {
      await serve.close({ graceMs: 5000 });
      serve = await start();
    },
    async close() {
      await queue.close();
      redis.disconnect();
      await serve.close({ graceMs: 1000 });
      await removeRedisPrefix(REDIS_URL, env.config.queue.prefix).catch(() => 0);
      await env.close();
    },
  };
  return harness;
}

async function waitForHistory(
  queue: SyncQueue,
  application: string,
  timeoutMs: number,
): Promise<HistoryEntry> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [entry] = await queue.history(application, 1);
    if (entry) return entry;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${application} did not finish within ${timeoutMs} ms`);
}

/**
 * `dir`/wavesync.yaml reading `dir`/applications (created), health timeout 15 s, environments staging (alerts in
 * C0ALERTS) and production (approval by @sam), plus `defaults` lines (`  key: value`).
 */
export async function writeTestSettings(dir: string, defaults: string[] = []): Promise<string> {
  await mkdir(path.join(dir, 'applications'), { recursive: true });
  const file = path.join(dir, 'wavesync.yaml');
  await writeFile(
    file,
    [
      'applications:',
      '  - directory: applications',
      'defaults:',
      '  healthTimeoutSeconds: 15',
      ...defaults,
      'environments:',
      '  staging:',
      '    notifications: { channel: C0ALERTS }',
      '  production:',
      '    requireApproval: true',
      '    approvers: { users: [U0SAM] }',
      '',
    ].join('\n'),
  );
  return file;
}

/** A private App of Apps: parent `stack` (staging) whose children are given in order; returns wavesync.yaml. */
export async function writeStackFixture(options: {
  /** `environment`: the child's `wavesync.io/environment` label. */
  children: { name: string; manifest: string; environment?: string }[];
  parentAnnotations?: Record<string, string>;
  /** Applications registered next to the parent (in production), each with its own manifests folder. */
  registered?: string[];
}): Promise<{ dir: string; configFile: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wavesync-aoa-'));
  const root = path.resolve(import.meta.dirname, '../../..');
  await writeTestSettings(dir);
  await mkdir(path.join(dir, 'stack'));
  const annotations = Object.entries(options.parentAnnotations ?? {})
    .map(([k, v]) => `    ${k}: "${v}"`)
    .join('\n');
  await writeFile(
    path.join(dir, 'applications', 'stack.yaml'),
    `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: stack
  namespace: argocd
  labels:
    wavesync.io/environment: staging
${annotations ? `  annotations:\n${annotations}\n` : ''}spec:
  source: { repoURL: "", path: stack }
  destination: { server: https://kubernetes.default.svc, namespace: argocd }
  syncPolicy: { syncOptions: [CreateNamespace=true] }
`,
  );
  await writeFile(
    path.join(dir, 'stack', 'application-crd.yaml'),
    await readFile(path.join(root, 'examples/app-of-apps/application-crd.yaml'), 'utf8'),
  );
  const docs = options.children.map(
    (c, wave) => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${c.name}
  namespace: argocd
  annotations: { argocd.argoproj.io/sync-wave: "${wave}" }${c.environment ? `\n  labels: { wavesync.io/environment: ${c.environment} }` : ''}
spec:
  source: { repoURL: "", path: manifests/${c.name} }
  destination: { server: https://kubernetes.default.svc, namespace: aoa-${c.name} }
  syncPolicy: { syncOptions: [CreateNamespace=true] }
`,
  );
  await writeFile(path.join(dir, 'stack', 'children.yaml'), docs.join('---\n'));
  for (const name of options.registered ?? []) {
    await writeFile(
      path.join(dir, 'applications', `${name}.yaml`),
      `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: { name: ${name}, namespace: argocd, labels: { wavesync.io/environment: production } }
spec:
  source: { repoURL: "", path: registered/${name} }
  destination: { server: https://kubernetes.default.svc, namespace: aoa-${name} }
`,
    );
  }
  for (const c of options.children) {
    await mkdir(path.join(dir, 'manifests', c.name), { recursive: true });
    await writeFile(path.join(dir, 'manifests', c.name, 'manifest.yaml'), c.manifest);
  }
  return {
    dir,
    configFile: path.join(dir, 'wavesync.yaml'),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A Deployment `web` with one replica of `image`; `progressDeadlineSeconds` when given. */
export function deployment(image: string, progressDeadlineSeconds?: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
${progressDeadlineSeconds === undefined ? '' : `  progressDeadlineSeconds: ${progressDeadlineSeconds}\n`}  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
        - name: web
          image: ${image}
`;
}

/**
 * A PreSync Job hook that runs `seconds` simulated seconds (1/20 of that in real time at the demo's speed): an
 * operation with it lasts at least that long.
 */
export function preSyncJob(seconds: number): string {
  return `apiVersion: batch/v1
kind: Job
metadata:
  name: before
  annotations:
    argocd.argoproj.io/hook: PreSync
    argocd.argoproj.io/hook-delete-policy: HookSucceeded
spec:
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: sleep
          image: alpine:3.20
          command: ["sleep", "${seconds}"]
`;
}
