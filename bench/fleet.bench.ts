/**
 * The fleet benchmark (issue 32): APPS automated Applications (default 1,000) × OBJECTS ConfigMaps each (default
 * 50) on the Kubernetes API simulator, synced once by WORKERS real `wavesync worker` processes (default 2; syncs
 * enqueued on the real queue, no Slack thread), then one real `wavesync bot` process runs drift detection with
 * nothing changed. Measured per drift cycle, over CYCLES cycles (default 3) after two warm-up cycles:
 *
 * - API requests the simulator answered, by verb and by kind of request (GET of one object, LIST, WATCH);
 * - CPU seconds of each wavesync process (/proc/<pid>/stat utime+stime) and its peak RSS (sampled VmRSS each
 *   second in the window; VmHWM for the whole run);
 * - drift comparisons done (the bot's `wavesync_drift_checks_total`), so a cycle that skipped Applications shows.
 *
 * Then one object of one Application is edited out of band, EDITS times (other Applications each time), and the
 * time until its drift notice is in the Slack channel is measured (watch-driven: not the next interval tick).
 *
 * The interval is shortened to INTERVAL seconds (default 30) to fit the time; figures are per cycle. Watches are
 * re-opened by the API server's timeout (time-based, not per cycle): their count is reported per minute too.
 * Run: `npm run bench:fleet` (APPS, OBJECTS, WORKERS, INTERVAL, CYCLES, EDITS change the size; FAULT_RATE fails
 * that share of the simulator's requests during the measured window, to see what watch errors cost).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { type RequestRecord, startSimulator } from '../sim/index.js';
import { FakeSlackApi } from '../src/demo/fake-slack/fake-slack-api.js';
import { removeRedisPrefix } from '../src/demo/remove-redis-prefix.js';
import { createSyncQueue, SYNC_QUEUE_NAME } from '../src/queue/index.js';
import { REDIS_URL } from '../test/e2e/support/e2e-stack.js';
import { startWavesyncProcess, type WavesyncProcess } from '../test/e2e/support/wavesync-process.js';

const APPS = Number(process.env.APPS ?? 1000);
const OBJECTS = Number(process.env.OBJECTS ?? 50);
const WORKERS = Number(process.env.WORKERS ?? 2);
const INTERVAL = Number(process.env.INTERVAL ?? 30);
const CYCLES = Number(process.env.CYCLES ?? 3);
const EDITS = Number(process.env.EDITS ?? 3);
/** Share of the simulator's requests failed during the measured window (sim/faults.ts; default 0). */
const FAULT_RATE = Number(process.env.FAULT_RATE ?? 0);
const CHANNEL = 'C0FLEET';

const names = Array.from({ length: APPS }, (_, i) => `fleet-${String(i).padStart(4, '0')}`);
const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** utime + stime of a process, in seconds. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Math.round(Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024);
}

/** Requests by type: WATCH, LIST (a collection), GET (one object), discovery, and other verbs. */
function requestKinds(requests: readonly RequestRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of requests) {
    const [p = '', q = ''] = r.path.split('?');
    const segments = p.split('/').filter(Boolean);
    // /api/v1/<rest> · /apis/<group>/<version>/<rest>; rest: [namespaces/<ns>/]<plural>[/<name>[/<sub>]]
    const rest =
      segments[0] === 'api' ? segments.slice(2) : segments[0] === 'apis' ? segments.slice(3) : undefined;
    const scoped = rest?.[0] === 'namespaces' && rest.length >= 3 ? rest.slice(2) : rest;
    let type: string;
    if (q.includes('watch=true')) type = 'WATCH';
    else if (r.method !== 'GET') type = r.method;
    else if (scoped === undefined || scoped.length === 0) type = 'GET discovery';
    else type = scoped.length === 1 ? 'LIST' : 'GET object';
    counts[type] = (counts[type] ?? 0) + 1;
  }
  return counts;
}

async function driftChecks(bot: WavesyncProcess): Promise<Record<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${bot.port}/metrics`)).text();
  const counts: Record<string, number> = {};
  // Keyed `trigger:result` (interval: the cycle's comparisons; change: change-driven ones).
  for (const m of text.matchAll(/^wavesync_drift_checks_total\{([^}]*)\} (\d+)/gm)) {
    const result = /result="(\w+)"/.exec(m[1]!)?.[1] ?? '?';
    const trigger = /trigger="(\w+)"/.exec(m[1]!)?.[1] ?? 'interval';
    const key = `${trigger}:${result}`;
    counts[key] = (counts[key] ?? 0) + Number(m[2]);
  }
  return counts;
}

const dir = await mkdtemp(path.join(tmpdir(), 'wavesync-fleet-bench-'));
const sim = await startSimulator({ speed: 20 });
const slack = await FakeSlackApi.start({});
const prefix = `wavesync-fleet-bench-${randomUUID().slice(0, 8)}`;
const processes: WavesyncProcess[] = [];
const producer = createSyncQueue({ connection: { url: REDIS_URL }, prefix });
const queue = new Queue(SYNC_QUEUE_NAME, { connection: { url: REDIS_URL }, prefix });

try {
  await mkdir(path.join(dir, 'applications'));
  await mkdir(path.join(dir, 'manifests'));
  const manifests = Array.from({ length: OBJECTS }, (_, j) =>
    [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      `  name: cm-${String(j).padStart(2, '0')}`,
      'data:',
      '  mode: steady',
      `  index: "${j}"`,
    ].join('\n'),
  );
  await writeFile(path.join(dir, 'manifests', 'config.yaml'), `${manifests.join('\n---\n')}\n`);
  await writeFile(
    path.join(dir, 'wavesync.yaml'),
    [
      'applications:',
      '  - directory: applications',
      'defaults:',
      '  healthTimeoutSeconds: 30',
      `  driftDetection: { intervalSeconds: ${INTERVAL}, enabled: true, channel: ${CHANNEL} }`,
      '',
    ].join('\n'),
  );
  for (const name of names) {
    await writeFile(
      path.join(dir, 'applications', `${name}.yaml`),
      [
        'apiVersion: argoproj.io/v1alpha1',
        'kind: Application',
        'metadata:',
        `  name: ${name}`,
        '  namespace: argocd',
        'spec:',
        '  project: default',
        '  source: { repoURL: "", path: manifests }',
        `  destination: { server: https://kubernetes.default.svc, namespace: ${name} }`,
        '  syncPolicy: { automated: {}, syncOptions: [CreateNamespace=true] }',
        '',
      ].join('\n'),
    );
  }
  // One kubeconfig (bearer token) per process: the simulator's request log tells who asked (RequestRecord.user).
  const kubeconfigFor = async (user: string) => {
    const file = path.join(dir, `kubeconfig-${user}`);
    await sim.writeKubeconfig(file, { token: user });
    return file;
  };
  const env: Record<string, string> = {
    REDIS_URL,
    PORT: '0',
    LOG_LEVEL: 'info',
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_SIGNING_SECRET: randomUUID(),
    SLACK_API_URL: slack.apiUrl,
    WAVESYNC_CONFIG: path.join(dir, 'wavesync.yaml'),
    WAVESYNC_QUEUE_PREFIX: prefix,
    WAVESYNC_WORKER_CONCURRENCY: '4',
  };

  log(`${APPS} Applications × ${OBJECTS} ConfigMaps; starting ${WORKERS} workers`);
  for (let i = 0; i < WORKERS; i++)
    processes.push(
      await startWavesyncProcess('worker', { ...env, KUBECONFIG: await kubeconfigFor(`worker-${i + 1}`) }),
    );
  const workers = [...processes];
  const syncStart = Date.now();
  for (const application of names)
    await producer.enqueueSync({
      application,
      operation: { prune: false, dryRun: false, syncOptions: [] },
      initiator: { userId: 'U0BENCH', userName: 'bench' },
      target: undefined,
      requestKey: `fleet-${randomUUID()}`,
    });
  for (;;) {
    const counts = await queue.getJobCounts('completed', 'failed');
    if ((counts.completed ?? 0) + (counts.failed ?? 0) >= APPS) {
      log(
        `synced: ${counts.completed} completed, ${counts.failed} failed in ${(Date.now() - syncStart) / 1000} s`,
      );
      break;
    }
    await sleep(2000);
  }
  const syncCpu = workers.map((w) => cpuSeconds(w.child.pid!));
  log(
    `workers after the syncs: CPU ${syncCpu.map((s) => `${s.toFixed(1)} s`).join(', ')}, ` +
      `peak RSS ${workers.map((w) => `${memoryMb(w.child.pid!, 'VmHWM')} MB`).join(', ')}`,
  );

  // BOT_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the bot.
  const bot = await startWavesyncProcess(
    'bot',
    { ...env, KUBECONFIG: await kubeconfigFor('bot') },
    process.env.BOT_NODE_ARGS?.split(' ') ?? [],
  );
  processes.push(bot);
  const botStarted = Date.now();
  log(`bot started; two warm-up drift cycles (${2 * INTERVAL} s)`);
  await sleep(2 * INTERVAL * 1000 + 2000);

  const all = [bot, ...workers];
  const before = {
    requests: sim.requests.length,
    cpu: all.map((p) => cpuSeconds(p.child.pid!)),
    checks: await driftChecks(bot),
    at: Date.now(),
  };
  const peakRss = all.map(() => 0);
  sim.faults.rate = FAULT_RATE;
  for (let t = 0; t < CYCLES * INTERVAL; t++) {
    await sleep(1000);
    all.forEach((p, i) => {
      peakRss[i] = Math.max(peakRss[i]!, memoryMb(p.child.pid!, 'VmRSS'));
    });
  }
  sim.faults.rate = 0;
  if (FAULT_RATE > 0)
    log(`${sim.faults.injected} requests failed on purpose in the window (FAULT_RATE ${FAULT_RATE})`);
  const window = sim.requests.slice(before.requests);
  const cpu = all.map((p, i) => cpuSeconds(p.child.pid!) - before.cpu[i]!);
  const checks = await driftChecks(bot);
  const minutes = (Date.now() - before.at) / 60_000;
  const perCycle = (n: number) => (n / CYCLES).toFixed(1);
  const kinds = requestKinds(window);
  log(`measured ${CYCLES} cycles of ${INTERVAL} s (${minutes.toFixed(2)} min)`);
  console.log(
    `drift checks in the window: ${JSON.stringify(
      Object.fromEntries(Object.entries(checks).map(([k, v]) => [k, v - (before.checks[k] ?? 0)])),
    )} (${APPS} Applications per cycle expected)`,
  );
  console.log(
    `API requests per cycle: ${perCycle(window.length)} — ${Object.entries(kinds)
      .map(([k, v]) => `${k} ${perCycle(v)}`)
      .join(', ')}; WATCH re-opens per minute ${((kinds.WATCH ?? 0) / minutes).toFixed(1)}`,
  );
  // Who lists what, when: by process (its token) and path; a `continue` is a further page of the same list.
  const lists = new Map<string, { pages: number; starts: number[] }>();
  for (const r of window) {
    if (r.method !== 'GET' || r.path.includes('watch=true') || !requestKinds([r]).LIST) continue;
    const [p = '', q = ''] = r.path.split('?');
    const key = `${r.user ?? '?'} ${p}${q.includes('labelSelector') ? ' (labelSelector)' : ''}`;
    const entry = lists.get(key) ?? { pages: 0, starts: [] };
    entry.pages++;
    if (!q.includes('continue=')) entry.starts.push(Math.round((r.at - before.at) / 1000));
    lists.set(key, entry);
  }
  console.log(
    `LIST requests in the window by process and path (pages; lists started at s into the window): ${
      [...lists]
        .sort((a, b) => b[1].pages - a[1].pages)
        .map(([k, e]) => `${k} ${e.pages} (${e.starts.join(' ')})`)
        .join(', ') || 'none'
    }`,
  );
  const byUser = new Map<string, Record<string, number>>();
  for (const r of window) {
    const counts = byUser.get(r.user ?? '?') ?? {};
    for (const [k, v] of Object.entries(requestKinds([r]))) counts[k] = (counts[k] ?? 0) + v;
    byUser.set(r.user ?? '?', counts);
  }
  console.log(
    `API requests per cycle by process: ${[...byUser]
      .map(
        ([user, counts]) =>
          `${user}: ${Object.entries(counts)
            .map(([k, v]) => `${k} ${perCycle(v)}`)
            .join(', ')}`,
      )
      .join('; ')}`,
  );
  all.forEach((p, i) => {
    console.log(
      `${p.role} ${i === 0 ? '' : i}: CPU per cycle ${(cpu[i]! / CYCLES).toFixed(2)} s · peak RSS in the window ` +
        `${peakRss[i]} MB · peak RSS of the run (VmHWM) ${memoryMb(p.child.pid!, 'VmHWM')} MB`,
    );
  });

  const latencies: number[] = [];
  for (let e = 0; e < EDITS; e++) {
    const app = names[Math.floor(((e + 1) * APPS) / (EDITS + 1))]!;
    const roots = () => slack.channelMessages(CHANNEL).filter((m) => !m.threadTs).length;
    const rootsBefore = roots();
    const ref = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: app,
      name: `cm-${String(Math.min(7, OBJECTS - 1)).padStart(2, '0')}`,
    };
    const live = sim.get(ref)!;
    const editedAt = Date.now();
    sim.put({ ...live, data: { ...(live.data as object), mode: 'edited out of band' } });
    const deadline = editedAt + 4 * INTERVAL * 1000;
    while (roots() === rootsBefore && Date.now() < deadline) await sleep(50);
    const ms = roots() > rootsBefore ? Date.now() - editedAt : Number.NaN;
    latencies.push(ms);
    log(`edit of ${app} ConfigMap/${ref.name} → drift notice: ${ms} ms`);
    await sleep(3000);
  }
  console.log(`out-of-band edit → drift notice: ${latencies.map((ms) => `${ms} ms`).join(', ')}`);
  console.log(`bot up ${(Date.now() - botStarted) / 1000} s`);
} finally {
  await Promise.all(processes.map((p) => p.stop()));
  await producer.close();
  await queue.close();
  await slack.close();
  await sim.stop();
  await removeRedisPrefix(REDIS_URL, prefix);
  await rm(dir, { recursive: true, force: true });
}
