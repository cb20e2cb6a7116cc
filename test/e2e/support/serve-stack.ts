/**
 * One in-process `wavesync serve` (bot + worker, through the composition root) for end-to-end tests: the Kubernetes
 * API simulator over HTTP, the fake Slack Web API, signed Slack requests to the bot, the real BullMQ queue on the
 * real Redis under a unique key prefix, and a scratch folder holding wavesync.yaml and the Application files.
 * Set TEST_LOG_LEVEL=warn (or debug) to see the processes' logs.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { Redis } from 'ioredis';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import { loadConfig } from '../../../src/config.js';
import { FakeSlackApi } from '../../../src/demo/fake-slack/fake-slack-api.js';
import { SignedSlackClient } from '../../../src/demo/fake-slack/slack-client.js';
import { removeRedisPrefix } from '../../../src/demo/remove-redis-prefix.js';
import { createLogger } from '../../../src/logger.js';
import { type RunningWavesync, startWavesync } from '../../../src/main/start-wavesync.js';
import { createSyncQueue, type HistoryEntry, type SyncQueue } from '../../../src/queue/index.js';
import { renderBlocksAsText } from '../../../src/slack/messages/render-blocks-as-text.js';
import { outboxesKey } from '../../../src/thread/redis-thread-outbox.js';
import { waitFor } from '../../integration/support/queue-test-env.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

type Blocks = Parameters<typeof renderBlocksAsText>[0];

export interface ServeStack {
  sim: Simulator;
  slack: FakeSlackApi;
  serve: RunningWavesync;
  queue: SyncQueue;
  client: SignedSlackClient;
  apps: AppsV1Api;
  core: CoreV1Api;
  /** The scratch folder (wavesync.yaml is in it). */
  dir: string;
  /** `/sync <text>` signed as Slack sends it, by `userId` in `channel`; resolves with the ack's text. */
  command(text: string, channel: string, userId: string): Promise<string>;
  /**
   * Wait until `app` has `count` finished operations, nothing queued, and every thread delivered (a job ends once its
   * lines are in the outbox; the worker posts them after it); resolves with its history, newest first.
   */
  finished(app: string, count: number): Promise<HistoryEntry[]>;
  /** A message's blocks as text. */
  text(channel: string, ts: string): string;
  close(): Promise<void>;
}

export interface ServeStackOptions {
  /** wavesync.yaml; `applications: [directory: applications]` reads `files` under `applications/`. */
  settings: string;
  /** Files to write below the scratch folder (relative path → content). */
  files: Record<string, string>;
  /** Slack users (id → name). */
  users: Record<string, string>;
  /** Simulator speed (default 20). */
  speed?: number;
}

/** The Config of an in-process wavesync talking to `slack`, the simulator's kubeconfig and the real Redis. */
export function e2eConfig(o: {
  slack: Pick<FakeSlackApi, 'botToken' | 'apiUrl'>;
  secret: string;
  kubeconfigFile: string;
  configFile: string;
  prefix: string;
}) {
  return loadConfig({
    REDIS_URL,
    PORT: '0',
    SLACK_BOT_TOKEN: o.slack.botToken,
    SLACK_SIGNING_SECRET: o.secret,
    SLACK_API_URL: o.slack.apiUrl,
    KUBECONFIG: o.kubeconfigFile,
    WAVESYNC_CONFIG: o.configFile,
    WAVESYNC_QUEUE_PREFIX: o.prefix,
  });
}

/**
 * An Argo CD Application `name` in the `staging` environment, deploying `source` (a YAML flow mapping) to namespace
 * `name` with CreateNamespace=true; `automated` adds `syncPolicy.automated`, `annotations` its metadata annotations.
 */
export function stagingApplicationYaml(
  name: string,
  source: string,
  options: { automated?: boolean; annotations?: Record<string, string> } = {},
): string {
  const annotations = Object.entries(options.annotations ?? {})
    .map(([k, v]) => `\n    ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join('');
  return `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${name}
  namespace: argocd
  labels: { wavesync.io/environment: staging }${annotations ? `\n  annotations:${annotations}` : ''}
spec:
  project: default
  source: ${source}
  destination: { server: https://kubernetes.default.svc, namespace: ${name} }
  syncPolicy:
    syncOptions: [CreateNamespace=true]
${options.automated ? '    automated: { prune: true }\n' : ''}`;
}

/**
 * A Deployment `web` (one replica, label app=web) running `image`, as YAML; `progressDeadlineSeconds` when given.
 */
export function webDeploymentYaml(image: string, progressDeadlineSeconds?: number): string {
  const deadline =
    progressDeadlineSeconds === undefined ? '' : `\n  progressDeadlineSeconds: ${progressDeadlineSeconds}`;
  return `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  replicas: 1${deadline}
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
        - { name: web, image: "${image}" }
`;
}

/** A `web/` folder for a git fixture: a ConfigMap `web-config` holding `version` and the Deployment `web` running `image`. */
export function webManifests(version: string, image: string): Record<string, string> {
  return {
    'web/config.yaml': `apiVersion: v1
kind: ConfigMap
metadata: { name: web-config }
data: { version: "${version}" }
`,
    'web/deployment.yaml': webDeploymentYaml(image),
  };
}

/** The ephemeral replies the bot sent to `channel`'s response_url, as text, oldest first. */
export function ephemeralTextsOf(stack: Pick<ServeStack, 'slack'>, channel: string): string[] {
  return stack.slack.responseUrlPosts(channel).map((p) => {
    const blocks = p.body.blocks as Blocks | undefined;
    return blocks ? renderBlocksAsText(blocks) : String(p.body.text ?? '');
  });
}

export async function startServeStack(options: ServeStackOptions): Promise<ServeStack> {
  const sim = await startSimulator({ speed: options.speed ?? 20 });
  const slack = await FakeSlackApi.start({
    postIntervalMs: 1,
    burst: 1000,
    users: Object.entries(options.users).map(([id, name]) => ({ id, name })),
  });
  const dir = await mkdtemp(path.join(tmpdir(), 'wavesync-serve-'));
  await writeFile(path.join(dir, 'wavesync.yaml'), options.settings);
  for (const [file, content] of Object.entries(options.files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  const kubeconfigFile = path.join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfigFile);
  const secret = randomUUID();
  const prefix = `wavesync-serve-${randomUUID().slice(0, 8)}`;
  const config = e2eConfig({
    slack,
    secret,
    kubeconfigFile,
    configFile: path.join(dir, 'wavesync.yaml'),
    prefix,
  });
  const level = (process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent';
  const serve = await startWavesync('serve', { config, logger: createLogger({ level }), host: '127.0.0.1' });
  const client = new SignedSlackClient(`http://127.0.0.1:${serve.port}`, secret);
  const queue = createSyncQueue({ connection: { url: REDIS_URL }, prefix });
  const outboxes = new Redis(REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 2 });
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigFile);
  return {
    sim,
    slack,
    serve,
    queue,
    client,
    apps: kc.makeApiClient(AppsV1Api),
    core: kc.makeApiClient(CoreV1Api),
    dir,
    async command(text, channel, userId) {
      const delivery = await client.sendCommand({
        text,
        userId,
        userName: options.users[userId] ?? userId,
        channelId: channel,
        responseUrl: slack.responseUrl(channel),
      });
      if (delivery.status !== 200) throw new Error(`/sync ${text}: HTTP ${delivery.status} ${delivery.body}`);
      if (!delivery.body) return '';
      const body = JSON.parse(delivery.body) as { text?: string; blocks?: Blocks };
      return body.blocks ? renderBlocksAsText(body.blocks) : (body.text ?? '');
    },
    finished(app, count) {
      return waitFor(
        async () => {
          const [history, line, undelivered] = await Promise.all([
            queue.history(app),
            queue.applicationStatus(app),
            outboxes.zcard(outboxesKey(prefix)),
          ]);
          return history.length >= count && line.length === 0 && undelivered === 0 && history;
        },
        60_000,
        `${count} finished operations of ${app}`,
      );
    },
    text(channel, ts) {
      return renderBlocksAsText((slack.message(channel, ts)?.blocks ?? []) as Blocks);
    },
    async close() {
      outboxes.disconnect();
      await queue.close();
      await serve.close({ graceMs: 1000 });
      await slack.close();
      await sim.stop();
      await removeRedisPrefix(REDIS_URL, prefix);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
