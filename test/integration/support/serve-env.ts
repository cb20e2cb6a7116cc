/**
 * `wavesync serve` in this process, as the product runs it (startWavesync), for tests that go through every real
 * part: the Kubernetes API simulator over HTTP, the fake Slack Web API, signed requests to the bot's HTTP receiver,
 * and the queue and worker on the shared Redis under a unique key prefix. The test gives the files of a temporary
 * folder (its `wavesync.yaml`, Applications and manifests); a kubeconfig for the simulator is written beside them.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { Redis } from 'ioredis';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import { loadConfig } from '../../../src/config.js';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';
import { createLogger } from '../../../src/logger.js';
import { type RunningWavesync, startWavesync } from '../../../src/main/start-wavesync.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { SignedSlackClient } from '../../fakes/slack-client.js';
import { deleteKeys, REDIS_URL, testRedis, uniquePrefix } from './queue-test-env.js';

export interface ServeEnv {
  sim: Simulator;
  slack: FakeSlackApi;
  /** Sends signed slash commands and button clicks to the bot. */
  bot: SignedSlackClient;
  wavesync: RunningWavesync;
  /** The temporary folder holding the given files, `wavesync.yaml` among them. */
  dir: string;
  /** The queue's (and approvals') Redis key prefix, deleted by close(). */
  prefix: string;
  /** A Redis connection of the test (closed by close()). */
  redis: Redis;
  /** client-node over HTTP to the simulator. */
  cluster: ReturnType<typeof createKubeCluster>;
  close(): Promise<void>;
}

/**
 * Write `files` (path relative to the folder → content) and start serve with `SLACK_SIGNING_SECRET=secret`;
 * `env` adds or overrides environment variables (e.g. `WAVESYNC_WORKER_CONCURRENCY`).
 */
export async function startServeEnv(options: {
  files: Record<string, string>;
  secret: string;
  env?: Record<string, string>;
}): Promise<ServeEnv> {
  const sim = await startSimulator({ speed: 20 });
  const slack = await FakeSlackApi.start({ postIntervalMs: 1, burst: 1000 });
  const dir = await mkdtemp(path.join(tmpdir(), 'wavesync-serve-'));
  for (const [file, content] of Object.entries(options.files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  await sim.writeKubeconfig(path.join(dir, 'kubeconfig'));
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig({ namespace: 'default' }));
  const prefix = uniquePrefix();
  const config = loadConfig({
    REDIS_URL,
    PORT: '0',
    LOG_LEVEL: 'silent',
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_SIGNING_SECRET: options.secret,
    SLACK_API_URL: slack.apiUrl,
    KUBECONFIG: path.join(dir, 'kubeconfig'),
    WAVESYNC_CONFIG: path.join(dir, 'wavesync.yaml'),
    WAVESYNC_QUEUE_PREFIX: prefix,
    ...options.env,
  });
  const wavesync = await startWavesync('serve', {
    config,
    logger: createLogger({ level: 'silent' }),
    host: '127.0.0.1',
  });
  const redis = testRedis();
  return {
    sim,
    slack,
    bot: new SignedSlackClient(`http://127.0.0.1:${wavesync.port}`, options.secret),
    wavesync,
    dir,
    prefix,
    redis,
    cluster: createKubeCluster(kc),
    async close() {
      await wavesync.close({ graceMs: 1000 });
      await slack.close();
      await sim.stop();
      await deleteKeys(redis, prefix);
      await redis.quit();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
