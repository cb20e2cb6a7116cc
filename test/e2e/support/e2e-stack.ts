/**
 * One end-to-end stack: the Kubernetes API simulator, the fake Slack Web API, and `wavesync bot` + `wavesync
 * worker` as separate child processes on the real Redis under a unique key prefix (removed by close()).
 * `socketMode: true` runs the bot in Socket Mode (SLACK_APP_TOKEN, no signing secret) against the fake's Socket
 * Mode server; `redis` points both processes at another topology (REDIS_SENTINELS…, REDIS_CLUSTER_NODES…).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import { buildKubeconfig } from '../../../sim/kubeconfig.js';
import { type Config, loadConfig } from '../../../src/config.js';
import { DEMO_USERS, type DemoApp } from '../../../src/demo/demo-scenario.js';
import { FakeSlackApi } from '../../../src/demo/fake-slack/fake-slack-api.js';
import { SignedSlackClient, type SlackSender } from '../../../src/demo/fake-slack/slack-client.js';
import { removeRedisPrefix } from '../../../src/demo/remove-redis-prefix.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
import { startWavesyncProcess, type WavesyncProcess } from './wavesync-process.js';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const root = path.resolve(import.meta.dirname, '../../..');

export interface E2eStack {
  sim: Simulator;
  slack: FakeSlackApi;
  env: Record<string, string>;
  config: Config;
  kubeconfigFile: string;
  bot: WavesyncProcess;
  worker: WavesyncProcess;
  /** Plays Slack towards the bot: signed HTTP to /slack/events, or the fake's Socket Mode server. */
  client: SlackSender;
  /** The proxy the processes reach the simulator through (with `kubeProxy: true`). */
  kubeProxy?: TcpProxy;
  /** Send a signed `/sync <app>` from the app's channel as @pat; resolves with the ack latency in ms. */
  sync(app: DemoApp): Promise<number>;
  /** Start a new worker process (after the old one died). */
  restartWorker(): Promise<WavesyncProcess>;
  close(): Promise<void>;
}

export interface E2eStackOptions {
  speed: number;
  /** Run the bot in Socket Mode. */
  socketMode?: boolean;
  /** REDIS_* variables of another topology (test/support/redis-topologies.ts); default REDIS_URL. */
  redisEnv?: Record<string, string>;
  /** Put a TCP proxy (./tcp-proxy.ts) between the processes and the simulator: `stack.kubeProxy` cuts the API. */
  kubeProxy?: boolean;
  /** More environment for both processes (e.g. WAVESYNC_SYNC_ATTEMPTS). */
  extraEnv?: Record<string, string>;
}

export async function startE2eStack(options: E2eStackOptions): Promise<E2eStack> {
  const sim = await startSimulator({ speed: options.speed });
  const slack = await FakeSlackApi.start({
    users: Object.values(DEMO_USERS).map((u) => ({ id: u.id, name: u.name })),
    socketMode: options.socketMode ?? false,
  });
  const dir = await mkdtemp(path.join(tmpdir(), 'wavesync-e2e-'));
  const kubeconfigFile = path.join(dir, 'kubeconfig');
  const kubeProxy = options.kubeProxy ? await startTcpProxy(sim.port) : undefined;
  if (kubeProxy) await writeFile(kubeconfigFile, buildKubeconfig(kubeProxy.url), { mode: 0o600 });
  else await sim.writeKubeconfig(kubeconfigFile);
  const secret = randomUUID();
  const prefix = `wavesync-e2e-${randomUUID().slice(0, 8)}`;
  const env: Record<string, string> = {
    ...(options.redisEnv ?? { REDIS_URL }),
    PORT: '0',
    LOG_LEVEL: 'info',
    SLACK_BOT_TOKEN: slack.botToken,
    ...(slack.socketMode ? { SLACK_APP_TOKEN: slack.socketMode.appToken } : { SLACK_SIGNING_SECRET: secret }),
    SLACK_API_URL: slack.apiUrl,
    KUBECONFIG: kubeconfigFile,
    WAVESYNC_CONFIG: path.join(root, 'examples/wavesync.yaml'),
    WAVESYNC_QUEUE_PREFIX: prefix,
    WAVESYNC_WORKER_LOCK_MS: '3000',
    WAVESYNC_WORKER_CONCURRENCY: '8',
    ...options.extraEnv,
  };
  const [bot, worker] = await Promise.all([
    startWavesyncProcess('bot', env),
    startWavesyncProcess('worker', env),
  ]);
  const config = loadConfig(env);
  const client = slack.socketMode ?? new SignedSlackClient(`http://127.0.0.1:${bot.port}`, secret);
  const stack: E2eStack = {
    sim,
    slack,
    env,
    config,
    kubeconfigFile,
    bot,
    worker,
    client,
    ...(kubeProxy ? { kubeProxy } : {}),
    async sync(app) {
      const delivery = await client.sendCommand({
        text: app.application,
        channelId: app.channel,
        userId: DEMO_USERS.requester.id,
        userName: DEMO_USERS.requester.name,
        responseUrl: slack.responseUrl(app.channel),
      });
      if (delivery.status !== 200)
        throw new Error(`/sync ${app.application}: HTTP ${delivery.status} ${delivery.body}`);
      return delivery.ackMs;
    },
    async restartWorker() {
      stack.worker = await startWavesyncProcess('worker', env);
      return stack.worker;
    },
    async close() {
      await Promise.all([stack.bot.stop(), stack.worker.stop()]);
      await slack.close();
      await kubeProxy?.close();
      await sim.stop();
      await removeRedisPrefix(config.redis, config.queue.prefix);
      await rm(dir, { recursive: true, force: true });
    },
  };
  return stack;
}
