/**
 * Scale benchmark: wavesync against `kubectl apply --server-side` of the same objects, in the same run, against
 * the same simulator (`wavesync cluster-sim`, its own process, speed 10).
 *   1. One wave of N mixed objects (a Namespace, then ConfigMaps, Secrets, Services, ServiceAccounts in it) for
 *      N = 250, 1,000, 2,000, 4,000, 10,000: wall time of each tool, ms per object, ratio wavesync / kubectl;
 *      then both again with nothing changed (wavesync now dry-runs every object before applying it).
 *   2. A CRD + 4,000 custom resources (no health) in one wave: first sync, no-change re-sync, peak RSS of the
 *      sync process (targets ≤ 60 s, ≤ 30 s, ≤ 256 MB).
 *   3. 10 waves of 5 Sync-hook Jobs against a shell-like loop of `kubectl apply --server-side` +
 *      `kubectl wait --for=condition=complete` per wave (target ratio ≤ 1.0).
 * wavesync runs in a child process as the worker does — compiled to JavaScript first (tsc, into
 * dist/bench-sync-child/), as the worker runs dist/ — (bench/support/sync-child.ts: load manifests +
 * runOperation, timed from the start of loading, without Node start-up; its CPU time over the same span; its peak
 * RSS from the kernel's VmHWM); kubectl's time is its process's wall time. The simulator's CPU time per case is
 * read from /proc, and the 1-minute load average is printed with every case (other processes share the cores).
 * Sizes: `SIZES=250,1000 PARTS=mixed npx tsx bench/scale.bench.ts`. Run: `npm run bench:scale`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { servedCrd } from '../test/builders/manifest-builders.js';
import { mixedObject, type SimProcess, startSimProcess } from './support/sim-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KUBECTL = process.env.KUBECTL ?? '/usr/bin/kubectl';
const SPEED = 10;
const SIZES = (process.env.SIZES ?? '250,1000,2000,4000,10000').split(',').map(Number);
const CRS = Number(process.env.CRS ?? 4000);
const WAVES = 10;
const JOBS_PER_WAVE = 5;

type Obj = Record<string, unknown>;

function run(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ ms: number; out: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(file, args, { env: { ...process.env, ...env }, maxBuffer: 256 * 2 ** 20 }, (error, out, err) => {
      if (error)
        reject(new Error(`${path.basename(file)} ${args.join(' ')} failed: ${err || error.message}`));
      else resolve({ ms: performance.now() - started, out });
    });
  });
}

interface ChildResult {
  phase: string;
  message: string;
  ms: number;
  cpuMs: number;
  peakRssMb: number;
}

const CHILD_DIST = path.join(ROOT, 'dist', 'bench-sync-child');

/** Compiles the sync child and the sources it imports to JavaScript (dist/ is git-ignored). */
async function compileChild(): Promise<void> {
  await rm(CHILD_DIST, { recursive: true, force: true });
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const config = path.join(ROOT, 'bench', 'support', 'tsconfig.sync-child.json');
  await run(process.execPath, [tsc, '-p', config, '--outDir', CHILD_DIST]);
  // As `npm run build` does: client-node's files in one bundle without its generated API.
  const bundle = path.join(ROOT, 'scripts', 'bundle-client-node.mjs');
  await run(process.execPath, [bundle, path.join(CHILD_DIST, 'src', 'kube', 'client-node.js')]);
}

/** The 1-minute load average, for the record next to each figure. */
const load = () => loadavg()[0]!.toFixed(1);

async function wavesync(
  kubeconfig: string,
  dir: string,
  app: string,
  namespace: string,
): Promise<ChildResult> {
  const child = path.join(CHILD_DIST, 'bench', 'support', 'sync-child.js');
  const { out } = await run(process.execPath, [child, kubeconfig, dir, app, namespace]);
  const result = JSON.parse(out.trim().split('\n').at(-1)!) as ChildResult;
  if (result.phase !== 'Succeeded') throw new Error(`wavesync ${app}: ${result.phase}: ${result.message}`);
  return result;
}

/** One kubectl run: its wall time and CPU time (user + system, from bash's `times` for its children), in ms. */
async function kubectl(kubeconfig: string, args: string[]): Promise<{ ms: number; cpuMs: number }> {
  const script = '"$0" "$@" >/dev/null && times';
  const { ms, out } = await run('/bin/bash', ['-c', script, KUBECTL, ...args], { KUBECONFIG: kubeconfig });
  // `times` prints the shell's user/system times, then its children's: "0m1.789s 0m0.233s".
  const children = out.trim().split('\n').at(-1) ?? '';
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map(([, m, s]) => Number(m) * 60 + Number(s));
  return { ms, cpuMs: seconds.reduce((a, b) => a + b, 0) * 1000 };
}

async function startSim(dir: string): Promise<SimProcess> {
  return startSimProcess(ROOT, dir, SPEED);
}

const mixed = (i: number, namespace: string): Obj => mixedObject(i, namespace);

async function writeManifests(dir: string, objects: Obj[]): Promise<string> {
  await rm(dir, { recursive: true, force: true });
  const { mkdir } = await import('node:fs/promises');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'all.yaml');
  await writeFile(file, objects.map((o) => stringify(o)).join('---\n'));
  return file;
}

function namespace(name: string): Obj {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function mixedWaves(work: string, kubeconfig: string, simCpu: () => Promise<number>): Promise<void> {
  const header = [
    '| objects | kubectl apply --server-side | wavesync sync | ratio | wall ms/object (kubectl / wavesync) | CPU ms/object (kubectl / wavesync) | wavesync peak RSS | simulator CPU (kubectl / wavesync) | load |',
    '|---|---|---|---|---|---|---|---|---|',
  ].join('\n');
  const again: string[] = [];
  console.log(
    "\nFirst apply (wavesync: the objects' Namespace is created by the same sync, so their dry run is skipped):",
  );
  console.log(header);
  for (const n of SIZES) {
    const objectsFor = (ns: string) => [
      namespace(ns),
      ...Array.from({ length: n - 1 }, (_, i) => mixed(i, ns)),
    ];
    const kcFile = await writeManifests(path.join(work, `kubectl-${n}`), objectsFor(`kubectl-${n}`));
    const wsDir = path.dirname(
      await writeManifests(path.join(work, `wavesync-${n}`), objectsFor(`wavesync-${n}`)),
    );
    const cpu0 = await simCpu();
    const k = await kubectl(kubeconfig, ['apply', '--server-side', '-f', kcFile]);
    const cpu1 = await simCpu();
    const w = await wavesync(kubeconfig, wsDir, `wavesync-${n}`, `wavesync-${n}`);
    const cpu2 = await simCpu();
    console.log(row(n, k, w, cpu1 - cpu0, cpu2 - cpu1));
    // Again, nothing changed: now every object exists, so wavesync dry-runs each one before applying it.
    const k2 = await kubectl(kubeconfig, ['apply', '--server-side', '-f', kcFile]);
    const cpu3 = await simCpu();
    const w2 = await wavesync(kubeconfig, wsDir, `wavesync-${n}`, `wavesync-${n}`);
    again.push(row(n, k2, w2, cpu3 - cpu2, (await simCpu()) - cpu3));
  }
  console.log(
    '\nThe same objects applied again, nothing changed (wavesync: server-side dry run + apply of each):',
  );
  console.log(header);
  for (const line of again) console.log(line);
}

/** One table row: kubectl's run `k`, wavesync's result `w`, the simulator's CPU ms during each. */
function row(n: number, k: Timed, w: ChildResult, simK: number, simW: number): string {
  const perObject = (ms: number) => (ms / n).toFixed(2);
  return `| ${n.toLocaleString('en')} | ${fmt(k.ms)} | ${fmt(w.ms)} | ${(w.ms / k.ms).toFixed(2)} | ${perObject(k.ms)} / ${perObject(w.ms)} | ${perObject(k.cpuMs)} / ${perObject(w.cpuMs)} | ${w.peakRssMb.toFixed(0)} MB | ${fmt(simK)} / ${fmt(simW)} | ${load()} |`;
}

type Timed = { ms: number; cpuMs: number };

async function customResources(work: string, kubeconfig: string): Promise<void> {
  const ns = 'gadgets';
  const crs = Array.from({ length: CRS }, (_, i) => ({
    apiVersion: 'bench.example.com/v1',
    kind: 'Gadget',
    metadata: { name: `gadget-${String(i).padStart(5, '0')}`, namespace: ns },
    spec: { size: i, colour: 'blue' },
  }));
  const dir = path.dirname(
    await writeManifests(path.join(work, 'crs'), [
      namespace(ns),
      servedCrd('bench.example.com', 'Gadget', 'gadgets'),
      ...crs,
    ]),
  );
  const first = { ...(await wavesync(kubeconfig, dir, 'gadgets', ns)), load: load() };
  const again = { ...(await wavesync(kubeconfig, dir, 'gadgets', ns)), load: load() };
  console.log(
    `\n| CRD + ${CRS.toLocaleString('en')} custom resources, one wave | time (target) | CPU | CPU ms/object | peak RSS (target ≤ 256 MB) | load |`,
  );
  console.log('|---|---|---|---|---|---|');
  for (const [name, r, target] of [
    ['first sync', first, '≤ 60 s'],
    ['no-change re-sync', again, '≤ 30 s'],
  ] as const) {
    console.log(
      `| ${name} | ${fmt(r.ms)} (${target}) | ${fmt(r.cpuMs)} | ${(r.cpuMs / CRS).toFixed(2)} | ${r.peakRssMb.toFixed(0)} MB | ${r.load} |`,
    );
  }
}

function hookJob(wave: number, index: number, namespace: string, hook: boolean): Obj {
  const annotations = hook
    ? { 'argocd.argoproj.io/hook': 'Sync', 'argocd.argoproj.io/sync-wave': String(wave) }
    : {};
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: `w${wave}-job-${index}`, namespace, labels: { wave: String(wave) }, annotations },
    spec: {
      backoffLimit: 0,
      template: {
        spec: {
          restartPolicy: 'Never',
          containers: [{ name: 'main', image: 'busybox:1.36', command: ['sleep', String(2 + (index % 3))] }],
        },
      },
    },
  };
}

async function jobWaves(work: string, kubeconfig: string): Promise<void> {
  const shellNs = 'waves-kubectl';
  await writeManifests(path.join(work, 'waves-ns'), [namespace(shellNs)]);
  await kubectl(kubeconfig, ['apply', '--server-side', '-f', path.join(work, 'waves-ns', 'all.yaml')]);
  const waveFiles: string[] = [];
  for (let wave = 0; wave < WAVES; wave++) {
    const jobs = Array.from({ length: JOBS_PER_WAVE }, (_, i) => hookJob(wave, i, shellNs, false));
    waveFiles.push(await writeManifests(path.join(work, `waves-kubectl-${wave}`), jobs));
  }
  const started = performance.now();
  for (const [wave, file] of waveFiles.entries()) {
    await kubectl(kubeconfig, ['apply', '--server-side', '-f', file]);
    const selector = `wave=${wave}`;
    await kubectl(kubeconfig, [
      'wait',
      '-n',
      shellNs,
      '--for=condition=complete',
      'job',
      '-l',
      selector,
      '--timeout=120s',
    ]);
  }
  const shell = performance.now() - started;
  const shellLoad = load();
  const ns = 'waves-wavesync';
  const objects = [namespace(ns)];
  for (let wave = 0; wave < WAVES; wave++)
    for (let i = 0; i < JOBS_PER_WAVE; i++) objects.push(hookJob(wave, i, ns, true));
  const dir = path.dirname(await writeManifests(path.join(work, 'waves-wavesync'), objects));
  const w = await wavesync(kubeconfig, dir, 'waves', ns);
  console.log(`\n| ${WAVES} waves × ${JOBS_PER_WAVE} Sync-hook Jobs | time | load |`);
  console.log('|---|---|---|');
  console.log(
    `| shell: kubectl apply --server-side + kubectl wait per wave | ${fmt(shell)} | ${shellLoad} |`,
  );
  console.log(`| wavesync sync | ${fmt(w.ms)} | ${load()} |`);
  console.log(`| ratio wavesync / shell (target ≤ 1.0) | ${(w.ms / shell).toFixed(2)} |`);
}

await compileChild();
const work = await mkdtemp(path.join(tmpdir(), 'wavesync-scale-'));
const sim = await startSim(work);
try {
  console.log(
    `scale bench: simulator speed ${SPEED}, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} at start`,
  );
  await run(KUBECTL, ['version', '--client'], {});
  const parts = (process.env.PARTS ?? 'mixed,crs,waves').split(',');
  if (parts.includes('mixed')) await mixedWaves(work, sim.kubeconfig, sim.cpuMs);
  if (parts.includes('crs')) await customResources(work, sim.kubeconfig);
  if (parts.includes('waves')) await jobWaves(work, sim.kubeconfig);
  console.log(`\nload average ${loadavg()[0]!.toFixed(1)} at end`);
} finally {
  sim.stop();
  await rm(work, { recursive: true, force: true });
}
