/**
 * The embedded default the demo runs on: the Kubernetes API simulator (time sped up), the fake Slack Web API,
 * a kubeconfig for the simulator, a unique Redis key prefix, and the Config that points wavesync at all of them.
 * No Slack or cluster credentials are read; only the REDIS_* variables (and LOG_LEVEL) come from the environment.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Simulator, startSimulator } from '../../sim/index.js';
import { type Config, loadConfig } from '../config.js';
import { packageRoot } from '../package-info.js';
import { DEMO_USERS } from './demo-scenario.js';
import { FakeSlackApi } from './fake-slack/fake-slack-api.js';

export interface DemoEnvironment {
  sim: Simulator;
  slack: FakeSlackApi;
  config: Config;
  signingSecret: string;
  /** Folder with the kubeconfig and the log file; removed by close() unless `keep`. */
  dir: string;
  kubeconfigFile: string;
  logFile: string;
  log: WriteStream;
  close(options?: { keep?: boolean }): Promise<void>;
}

export interface DemoEnvironmentOptions {
  /** REDIS_URL, or REDIS_SENTINELS + REDIS_SENTINEL_MASTER, or REDIS_CLUSTER_NODES (+ passwords). */
  redisEnv: Record<string, string>;
  logLevel: Config['logLevel'];
  /** Simulator time factor (default 20: a 30 s migration Job takes 1.5 s). */
  speed?: number;
  /** wavesync.yaml to use (default examples/wavesync.yaml); tests pass private variants. */
  configFile?: string;
  /** The bot in Socket Mode (SLACK_APP_TOKEN) against the fake Slack's Socket Mode server. */
  socketMode?: boolean;
}

/** Start the simulator and the fake Slack and build the Config for them. */
export async function startDemoEnvironment(options: DemoEnvironmentOptions): Promise<DemoEnvironment> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wavesync-demo-'));
  const sim = await startSimulator({ speed: options.speed ?? 20 });
  const slack = await FakeSlackApi.start({
    users: Object.values(DEMO_USERS).map((u) => ({ id: u.id, name: u.name })),
    socketMode: options.socketMode ?? false,
  });
  const kubeconfigFile = path.join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfigFile);
  const signingSecret = randomUUID();
  const logFile = path.join(dir, 'wavesync.log');
  const config = loadConfig({
    ...options.redisEnv,
    LOG_LEVEL: options.logLevel,
    PORT: '0',
    SLACK_BOT_TOKEN: slack.botToken,
    ...(slack.socketMode
      ? { SLACK_APP_TOKEN: slack.socketMode.appToken }
      : { SLACK_SIGNING_SECRET: signingSecret }),
    SLACK_API_URL: slack.apiUrl,
    KUBECONFIG: kubeconfigFile,
    WAVESYNC_CONFIG: options.configFile ?? path.join(packageRoot(), 'examples', 'wavesync.yaml'),
    WAVESYNC_QUEUE_PREFIX: `wavesync-demo-${randomUUID().slice(0, 8)}`,
    // Every example app syncs at once (they are different Applications), so the demo stays short.
    WAVESYNC_WORKER_CONCURRENCY: '8',
  });
  const log = createWriteStream(logFile);
  return {
    sim,
    slack,
    config,
    signingSecret,
    dir,
    kubeconfigFile,
    logFile,
    log,
    async close({ keep = false } = {}) {
      await slack.close();
      await sim.stop();
      await new Promise((resolve) => log.end(resolve));
      if (!keep) await rm(dir, { recursive: true, force: true });
    },
  };
}
