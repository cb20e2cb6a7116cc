/**
 * Event-loop stall benchmark (issue 29): the longest stall of `wavesync serve`'s event loop — the bot's, which
 * answers Slack and /healthz (`perf_hooks.monitorEventLoopDelay`, 10 ms resolution, max) — in each phase of one big
 * Application's life, at 2,000, 20,000 and 50,000 ConfigMaps (`SIZES=2000` for fewer), the CPU time the process used
 * within the longest stalls (that thread's), the longest stall of serve's worker thread (which runs the sync: its
 * `wavesync_worker_thread_nodejs_eventloop_lag_max_seconds`, read from /metrics at each phase's start and end),
 * and the process's peak RSS (both threads).
 *
 * Each size runs in a fresh child process of this script (so peak RSS is that size's): `wavesync serve` in that
 * process (startWavesync, the composition root, under tsx) with the fake Slack Web API beside it, the Kubernetes API
 * simulator in a process of its own (`wavesync cluster-sim --speed 20`), the real queue on the real Redis under a
 * unique prefix. The Application is one file of N ConfigMaps (`syncPolicy.automated`, so drift compares it).
 * Phases, each timed and measured from its start to its end:
 *   render     `/sync big` sent → the worker logs "operation started" (git/folder, YAML parse, limits)
 *   sync       → the worker logs "operation finished" (plan passes, CreateNamespace, applies, the wave's health)
 *   finish     → the header says Succeeded (app health, history, summary)
 *   diff       `/sync diff big` sent → its ephemeral reply (render, plan, N dry runs, compare)
 *   drift      one drift comparison of the Application (render, plan, compare)
 * Baseline in the same run: the stall of the idle process for 2 s before the first phase.
 * The 1-minute load average is printed with every row (other processes share the cores).
 * Run: `npx tsx bench/event-loop-stall.bench.ts` (SIZES=2000 for a quick one; BENCH_NODE_ARGS for the measured
 * process's node options, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`; BUILD=dist after `npm run build` to measure
 * serve as built — its threads then run compiled JavaScript, as an installed package's do; the bench's own
 * harness, the fake Slack API and the config loader stay under tsx on the bot's thread).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { FakeSlackApi } from '../src/demo/fake-slack/fake-slack-api.js';
import { SignedSlackClient } from '../src/demo/fake-slack/slack-client.js';
import { removeRedisPrefix } from '../src/demo/remove-redis-prefix.js';
import type { Logger } from '../src/logger.js';
import type * as StartWavesync from '../src/main/start-wavesync.js';
import { renderBlocksAsText } from '../src/slack/messages/render-blocks-as-text.js';
import { startSimProcess } from '../test/e2e/support/sim-process.js';

const SELF = fileURLToPath(import.meta.url);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

interface PhaseResult {
  phase: string;
  ms: number;
  maxStallMs: number;
  /** The most CPU time this process used within one stall (see StallProbe). */
  maxStallCpuMs: number;
  /** The longest stall of serve's worker thread's event loop in the phase (its nodejs_eventloop_lag_max). */
  workerStallMs: number;
  /** The process's largest RSS in the phase (sampled every 10 ms), and each thread's heap at its end (MB). */
  rssMb: number;
  botHeapMb: number;
  workerHeapMb: number;
  load: string;
}

/**
 * The CPU side of stalls: a 10 ms timer notes, for each late tick, how much CPU time the bot's thread (this
 * process's main thread) used since the previous tick: `/proc/thread-self/schedstat`'s run time (Linux, ns), not
 * the process's (serve's worker thread and the GC's helper threads would count). On a machine shared with other
 * work a stall is partly time spent waiting for a core; its CPU time is what the thread blocked its event loop
 * with, whatever the load.
 */
class StallProbe {
  private last = performance.now();
  private lastCpu = threadCpuMs();
  maxCpuMs = 0;
  /** The process's largest RSS seen by the timer (MB). */
  maxRssMb = 0;
  private readonly timer = setInterval(() => {
    const now = performance.now();
    const cpu = threadCpuMs();
    if (now - this.last > 20) this.maxCpuMs = Math.max(this.maxCpuMs, cpu - this.lastCpu);
    this.maxRssMb = Math.max(this.maxRssMb, process.memoryUsage.rss() / 2 ** 20);
    this.last = now;
    this.lastCpu = cpu;
  }, 10);

  reset(): void {
    this.maxCpuMs = 0;
    this.maxRssMb = 0;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** CPU time this thread has run, in ms (`/proc/thread-self/schedstat`: run time in ns, then wait time, slices). */
function threadCpuMs(): number {
  return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
}

const load = () => loadavg()[0]!.toFixed(1);

async function measureSize(n: number): Promise<{ phases: PhaseResult[]; peakRssMb: number }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wavesync-stall-'));
  const sim = await startSimProcess(path.join(dir, 'kubeconfig'), 20);
  const slack = await FakeSlackApi.start({
    postIntervalMs: 1,
    burst: 100_000,
    users: [{ id: 'U0PAT', name: 'pat' }],
  });
  const prefix = `wavesync-stall-${randomUUID().slice(0, 8)}`;
  await mkdir(path.join(dir, 'applications'));
  await mkdir(path.join(dir, 'big'));
  await writeFile(
    path.join(dir, 'wavesync.yaml'),
    `applications:\n  - directory: applications\ndefaults:\n  driftDetection: { intervalSeconds: 86400, channel: C0DRIFT }\n  applicationLimits: { maxObjects: ${n}, maxManifestBytes: ${n * 200} }\nenvironments:\n  staging: {}\n`,
  );
  await writeFile(
    path.join(dir, 'applications/big.yaml'),
    `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: { name: big, namespace: argocd, labels: { wavesync.io/environment: staging } }
spec:
  project: default
  source: { repoURL: "", path: big }
  destination: { server: https://kubernetes.default.svc, namespace: big }
  syncPolicy: { automated: {}, syncOptions: [CreateNamespace=true] }
`,
  );
  const docs: string[] = [];
  for (let i = 0; i < n; i++)
    docs.push(
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\ndata:\n  index: "${i}"\n  text: ${'x'.repeat(64)}\n`,
    );
  await writeFile(path.join(dir, 'big/all.yaml'), docs.join('---\n'));
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push((JSON.parse(chunk.toString()) as { msg: string }).msg);
      done();
    },
  });
  const secret = randomUUID();
  const config = loadConfig({
    REDIS_URL,
    PORT: '0',
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_SIGNING_SECRET: secret,
    SLACK_API_URL: slack.apiUrl,
    KUBECONFIG: sim.kubeconfig,
    WAVESYNC_CONFIG: path.join(dir, 'wavesync.yaml'),
    WAVESYNC_QUEUE_PREFIX: prefix,
  });
  // BUILD=dist: serve as built (`npm run build`), so both threads run compiled JavaScript as an installed package
  // does; otherwise the sources under tsx (each thread then holds its own tsx and transpiled sources).
  const { startWavesync }: typeof StartWavesync = await import(
    process.env.BUILD === 'dist' ? '../dist/src/main/start-wavesync.js' : '../src/main/start-wavesync.js'
  );
  const serve = await startWavesync('serve', {
    config,
    logger: pino({ level: 'info' }, stream) as unknown as Logger,
    host: '127.0.0.1',
  });
  const client = new SignedSlackClient(`http://127.0.0.1:${serve.port}`, secret);
  const send = (text: string) =>
    client.sendCommand({
      text,
      userId: 'U0PAT',
      userName: 'pat',
      channelId: 'C0BIG',
      responseUrl: slack.responseUrl('C0BIG'),
    });
  const headers = () =>
    slack
      .channelMessages('C0BIG')
      .filter((m) => !m.threadTs)
      .map((m) => renderBlocksAsText((slack.message('C0BIG', m.ts)?.blocks ?? []) as never));
  /**
   * The worker thread's longest event-loop stall since the last call: prom-client's lag histogram (10 ms
   * resolution) in that thread, read from serve's /metrics, which resets it.
   */
  const workerThread = async () => {
    const text = await (await fetch(`http://127.0.0.1:${serve.port}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
    return {
      stallMs: value('wavesync_worker_thread_nodejs_eventloop_lag_max_seconds') * 1000,
      heapMb: value('wavesync_worker_thread_nodejs_heap_size_used_bytes') / 2 ** 20,
    };
  };
  const phases: PhaseResult[] = [];
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const probe = new StallProbe();
  /** Measures from now until `done()` holds (polled every 10 ms), as phase `name`. */
  const phase = async (name: string, start: () => unknown, done: () => boolean) => {
    await workerThread();
    histogram.reset();
    probe.reset();
    const started = performance.now();
    await start();
    while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
    const ms = performance.now() - started;
    const maxStallMs = histogram.max / 1e6;
    const maxStallCpuMs = probe.maxCpuMs;
    phases.push({
      phase: name,
      ms,
      maxStallMs,
      maxStallCpuMs,
      ...(await workerThread().then((w) => ({ workerStallMs: w.stallMs, workerHeapMb: w.heapMb }))),
      rssMb: probe.maxRssMb,
      botHeapMb: process.memoryUsage().heapUsed / 2 ** 20,
      load: load(),
    });
    process.stderr.write(`  ${n}: ${name} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  };
  try {
    await phase(
      'idle (baseline, 2 s)',
      () => new Promise((resolve) => setTimeout(resolve, 2000)),
      () => true,
    );
    const logged = (msg: string, count: number) => () => logs.filter((m) => m === msg).length >= count;
    await phase('render', () => send('big'), logged('operation started', 1));
    await phase('sync', () => {}, logged('operation finished', 1));
    await phase(
      'finish',
      () => {},
      () => /Succeeded/.test(headers()[0] ?? ''),
    );
    const posts = () => slack.responseUrlPosts('C0BIG').length;
    const before = posts();
    await phase(
      'diff',
      () => send('diff big'),
      () => posts() > before,
    );
    await phase(
      'drift',
      () => serve.drift?.tick(),
      () => true,
    );
  } finally {
    histogram.disable();
    probe.stop();
    await serve.close({ graceMs: 1000 });
    await slack.close();
    await sim.stop();
    await removeRedisPrefix(REDIS_URL, prefix);
    await rm(dir, { recursive: true, force: true });
  }
  return { phases, peakRssMb: process.resourceUsage().maxRSS / 1024 };
}

const sizeArg = process.argv.indexOf('--size');
if (sizeArg > 0) {
  const result = await measureSize(Number(process.argv[sizeArg + 1]));
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  process.exit(0);
} else {
  const sizes = (process.env.SIZES ?? '2000,20000,50000').split(',').map(Number);
  console.log(`event-loop stall bench: Node ${process.version}, load average ${load()} at start`);
  for (const n of sizes) {
    // BENCH_NODE_ARGS: options for the measured process's node, split at spaces (`--cpu-prof --cpu-prof-dir=…`:
    // one profile per thread, the bot's and the worker's).
    const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const out = execFileSync(process.execPath, [...nodeArgs, '--import', 'tsx', SELF, '--size', String(n)], {
      encoding: 'utf8',
      maxBuffer: 64 * 2 ** 20,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = out.split('\n').find((l) => l.startsWith('RESULT '));
    if (!line) throw new Error(`size ${n}: no result`);
    const { phases, peakRssMb } = JSON.parse(line.slice('RESULT '.length)) as Awaited<
      ReturnType<typeof measureSize>
    >;
    console.log(
      `\n${n.toLocaleString('en')} ConfigMaps, peak RSS of the serve process ${peakRssMb.toFixed(0)} MB`,
    );
    console.log(
      "| phase | time | longest stall of the bot's event loop (target ≤ 200 ms) | most CPU in one stall | worker thread's longest stall | peak RSS | heap at the end: bot / worker | load |",
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const p of phases)
      console.log(
        `| ${p.phase} | ${(p.ms / 1000).toFixed(2)} s | ${p.maxStallMs.toFixed(0)} ms | ${p.maxStallCpuMs.toFixed(0)} ms | ${p.workerStallMs.toFixed(0)} ms | ${p.rssMb.toFixed(0)} MB | ${p.botHeapMb.toFixed(0)} / ${p.workerHeapMb.toFixed(0)} MB | ${p.load} |`,
      );
  }
}
