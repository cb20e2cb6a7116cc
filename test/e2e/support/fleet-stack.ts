/**
 * A fleet on the real processes: `apps` Applications (each one ConfigMap in its own namespace, a local source),
 * `bots` × `wavesync bot` and `workers` × `wavesync worker` on the real Redis (a unique prefix), the fake Slack Web
 * API with Slack's own chat.postMessage limits (one per second per channel, a burst of 3, 429 + Retry-After), and
 * the Kubernetes API simulator. `burst()` sends one `/sync <app>` per Application to one channel, spread over a
 * window, round-robin over the bots; `measure()` reads what happened from the queue, the simulator and Slack.
 * Used by test/e2e/fleet-burst.test.ts and bench/sync-burst.bench.ts.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Job, Queue } from 'bullmq';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import { loadConfig } from '../../../src/config.js';
import { FakeSlackApi } from '../../../src/demo/fake-slack/fake-slack-api.js';
import { type Delivery, SignedSlackClient } from '../../../src/demo/fake-slack/slack-client.js';
import { removeRedisPrefix } from '../../../src/demo/remove-redis-prefix.js';
import { SYNC_QUEUE_NAME } from '../../../src/queue/index.js';
import { REDIS_URL } from './e2e-stack.js';
import { startWavesyncProcess, type WavesyncProcess } from './wavesync-process.js';

export const FLEET_CHANNEL = 'C0FLEET';

export interface FleetOptions {
  apps: number;
  bots: number;
  workers: number;
  /** WAVESYNC_WORKER_CONCURRENCY of each worker; default 4 (wavesync's default). */
  concurrency?: number;
}

interface BurstResult {
  /** The ack latency of each command (ms), in sending order. */
  ackMs: number[];
  /** The ephemeral ack texts. */
  acks: string[];
  /** When the first command was sent (ms since epoch). */
  startedAt: number;
}

interface FleetFigures {
  jobs: number;
  completed: number;
  /** Per job: enqueued (job.timestamp) → its first server-side apply in the simulator (ms). */
  enqueueToApplyMs: number[];
  /** Per job: enqueued → taken by a worker (job.processedOn) (ms). */
  queueWaitMs: number[];
  /** Per job: the command sent → its first apply (ms). */
  commandToApplyMs: number[];
  /** From the first command to the last header posted in the channel (ms). */
  allHeadersMs: number;
  /** From the first command to the last job finished (ms). */
  totalMs: number;
  /** Sum over jobs of processedOn → finishedOn (ms): the syncs one after another. */
  sumOfSyncsMs: number;
  /**
   * Most jobs running at once (processedOn → finishedOn overlapping), against the slots (workers × concurrency): below
   * the slots, no job waited for a free slot.
   */
  peakRunning: number;
  /** Per job: taken by a worker → finished (ms). */
  syncMs: number[];
  /** chat.postMessage calls Slack answered 429. */
  rateLimited: number;
  /** Thread roots (headers) in the channel. */
  headers: number;
}

export interface FleetStack {
  sim: Simulator;
  slack: FakeSlackApi;
  bots: WavesyncProcess[];
  workers: WavesyncProcess[];
  appNames: string[];
  burst(withinMs: number): Promise<BurstResult>;
  /** The queue's jobs (any state). */
  jobs(): Promise<Job[]>;
  /** Wait until every app's job has finished (completed or failed). */
  waitForJobs(timeoutMs: number): Promise<Job[]>;
  measure(burst: BurstResult): Promise<FleetFigures>;
  close(): Promise<void>;
}

export async function startFleetStack(options: FleetOptions): Promise<FleetStack> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wavesync-fleet-'));
  const appNames = Array.from({ length: options.apps }, (_, i) => `fleet-${String(i).padStart(3, '0')}`);
  await writeFleetConfig(dir, appNames);
  const sim = await startSimulator({ speed: 20 });
  // Slack's chat.postMessage limit as the fake models it by default: 1 per second per channel, a burst of 3.
  const slack = await FakeSlackApi.start({});
  const kubeconfigFile = path.join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfigFile);
  const secret = randomUUID();
  const prefix = `wavesync-fleet-${randomUUID().slice(0, 8)}`;
  const env: Record<string, string> = {
    REDIS_URL,
    PORT: '0',
    LOG_LEVEL: 'info',
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_SIGNING_SECRET: secret,
    SLACK_API_URL: slack.apiUrl,
    KUBECONFIG: kubeconfigFile,
    WAVESYNC_CONFIG: path.join(dir, 'wavesync.yaml'),
    WAVESYNC_QUEUE_PREFIX: prefix,
    WAVESYNC_WORKER_CONCURRENCY: String(options.concurrency ?? 4),
  };
  // One after another: six processes compiling and connecting at once on a loaded 2-core machine outlast the
  // start timeout. A failed start stops what did start.
  const bots: WavesyncProcess[] = [];
  const workers: WavesyncProcess[] = [];
  try {
    for (let i = 0; i < options.bots; i++) bots.push(await startWavesyncProcess('bot', env));
    for (let i = 0; i < options.workers; i++) workers.push(await startWavesyncProcess('worker', env));
  } catch (error) {
    await Promise.all([...bots, ...workers].map((p) => p.stop()));
    await Promise.all([slack.close(), sim.stop(), rm(dir, { recursive: true, force: true })]);
    throw error;
  }
  const clients = bots.map((b) => new SignedSlackClient(`http://127.0.0.1:${b.port}`, secret));
  const config = loadConfig(env);
  const queue = new Queue(SYNC_QUEUE_NAME, { connection: { url: REDIS_URL }, prefix });
  const sentAt = new Map<string, number>();

  const jobs = async () =>
    (await queue.getJobs(['completed', 'failed', 'active', 'waiting', 'delayed', 'prioritized'])).filter(
      (j): j is Job => j !== undefined,
    );

  return {
    sim,
    slack,
    bots,
    workers,
    appNames,
    async burst(withinMs) {
      const startedAt = Date.now();
      const step = withinMs / appNames.length;
      const deliveries = await Promise.all(
        appNames.map(async (app, i): Promise<Delivery> => {
          await new Promise((resolve) => setTimeout(resolve, startedAt + i * step - Date.now()));
          sentAt.set(app, Date.now());
          return clients[i % clients.length]!.sendCommand({
            text: app,
            channelId: FLEET_CHANNEL,
            userId: 'U0PAT',
            userName: 'pat',
            responseUrl: slack.responseUrl(app),
          });
        }),
      );
      return {
        ackMs: deliveries.map((d) => d.ackMs),
        acks: deliveries.map((d) => String((d.json as { text?: unknown } | undefined)?.text ?? d.body)),
        startedAt,
      };
    },
    jobs,
    async waitForJobs(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const all = await jobs();
        const done = all.filter((j) => j.finishedOn !== undefined);
        if (done.length >= appNames.length) return done;
        if (Date.now() > deadline)
          throw new Error(`${done.length} of ${appNames.length} syncs finished within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    },
    async measure(burst) {
      const all = await jobs();
      const firstApply = new Map<string, number>();
      for (const r of sim.requests) {
        const ns = /\/namespaces\/(fleet-\d+)\/configmaps\//.exec(r.path)?.[1];
        if (r.method === 'PATCH' && ns && !r.path.includes('dryRun') && !firstApply.has(ns))
          firstApply.set(ns, r.at);
      }
      const enqueueToApplyMs: number[] = [];
      const queueWaitMs = all.map((j) => (j.processedOn ?? j.timestamp) - j.timestamp);
      const commandToApplyMs: number[] = [];
      for (const job of all) {
        const app = (job.data as { request?: { application?: string } }).request?.application ?? '';
        const applied = firstApply.get(app);
        if (applied === undefined) continue;
        enqueueToApplyMs.push(applied - job.timestamp);
        commandToApplyMs.push(applied - (sentAt.get(app) ?? burst.startedAt));
      }
      const roots = slack.calls('chat.postMessage').filter((c) => c.status === 200 && !c.args.thread_ts);
      const finished = all.flatMap((j) => (j.finishedOn === undefined ? [] : [j.finishedOn]));
      return {
        jobs: all.length,
        completed: all.filter((j) => j.finishedOn !== undefined && !j.failedReason).length,
        enqueueToApplyMs,
        queueWaitMs,
        commandToApplyMs,
        allHeadersMs: Math.max(...roots.map((c) => c.at)) - burst.startedAt,
        totalMs: Math.max(...finished) - burst.startedAt,
        sumOfSyncsMs: all.reduce((sum, j) => sum + ((j.finishedOn ?? 0) - (j.processedOn ?? 0)), 0),
        syncMs: all.flatMap((j) =>
          j.processedOn === undefined || j.finishedOn === undefined ? [] : [j.finishedOn - j.processedOn],
        ),
        peakRunning: peakOverlap(
          all.flatMap((j) =>
            j.processedOn === undefined || j.finishedOn === undefined ? [] : [[j.processedOn, j.finishedOn]],
          ),
        ),
        rateLimited: slack.calls('chat.postMessage').filter((c) => c.status === 429).length,
        headers: slack.channelMessages(FLEET_CHANNEL).filter((m) => !m.threadTs).length,
      };
    },
    async close() {
      await Promise.all([...bots, ...workers].map((p) => p.stop()));
      await queue.close();
      await slack.close();
      await sim.stop();
      await removeRedisPrefix(config.redis, config.queue.prefix);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The most intervals [start, end) open at one moment. */
function peakOverlap(intervals: readonly (readonly [number, number])[]): number {
  const edges = intervals.flatMap(([start, end]) => [
    [start, 1],
    [end, -1],
  ]);
  // Ends before starts at the same moment: a slot handed over is not two jobs at once.
  edges.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  let open = 0;
  let peak = 0;
  for (const [, step] of edges) {
    open += step!;
    peak = Math.max(peak, open);
  }
  return peak;
}

/** wavesync.yaml and one Application per name: a ConfigMap in the namespace of the app's name. */
async function writeFleetConfig(dir: string, names: readonly string[]): Promise<void> {
  await mkdir(path.join(dir, 'applications'));
  await mkdir(path.join(dir, 'manifests'));
  await writeFile(
    path.join(dir, 'manifests', 'config.yaml'),
    ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: settings', 'data:', '  mode: fleet', ''].join(
      '\n',
    ),
  );
  await writeFile(
    path.join(dir, 'wavesync.yaml'),
    ['applications:', '  - directory: applications', 'defaults:', '  healthTimeoutSeconds: 15', ''].join(
      '\n',
    ),
  );
  for (const name of names) {
    const app = [
      'apiVersion: argoproj.io/v1alpha1',
      'kind: Application',
      'metadata:',
      `  name: ${name}`,
      '  namespace: argocd',
      'spec:',
      '  project: default',
      '  source: { repoURL: "", path: manifests }',
      `  destination: { server: https://kubernetes.default.svc, namespace: ${name} }`,
      '  syncPolicy: { syncOptions: [CreateNamespace=true] }',
      '',
    ].join('\n');
    await writeFile(path.join(dir, 'applications', `${name}.yaml`), app);
  }
}
