/**
 * Small syncs end to end (issue 32): `wavesync sync DIR` against `kubectl apply --server-side -f FILE` of the same
 * objects, each as a user runs it — a whole process, from its start to its exit — on one simulator in its own
 * process (`wavesync cluster-sim --speed 10`), in the same run, alternating the commands (kubectl, wavesync, and
 * the "before" checkout when BASE is given) so that a change of load hits them all alike.
 *
 * Objects: a Namespace, then ConfigMaps 40 %, Secrets 30 %, Services 20 %, ServiceAccounts 10 % in it (as the
 * scale bench), each tool its own copy in its own namespace. One warm-up run of each command first (the first
 * apply; also fills kubectl's and wavesync's discovery caches), then RUNS counted runs, each a re-apply with
 * nothing changed. Per run: wall, user and system CPU and peak RSS from `/usr/bin/time` (the kernel's accounting
 * of the finished process). Printed: the medians, the median of the pairwise ratios of each command to kubectl's
 * (wavesync, and before and the floors when asked), and the 1-minute load average before and after each size.
 *
 * wavesync runs as its installed package (bin/ and dist/ only, as npm installs it), so it starts as a user's does.
 *
 * Run: `npm run build && npx tsx bench/small-sync.bench.ts`; `SIZES=50,250 RUNS=7`; `BASE=/path/to/other/checkout`
 * (built with `npm run build`) adds its `bin/wavesync.js` as "before"; `FLOOR=1` adds the floor under any Node.js
 * process (bench/support/apply-floor.mjs: the objects already parsed, sent as server-side applies and nothing else)
 * with one request per object as kubectl sends ("floor 1x") and with a dry run of each first as wavesync sends
 * ("floor 2x").
 */
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { mixedObject, startSimProcess } from './support/sim-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KUBECTL = process.env.KUBECTL ?? '/usr/bin/kubectl';
const SIZES = (process.env.SIZES ?? '50,250,2000').split(',').map(Number);
const RUNS = Number(process.env.RUNS ?? 5);
const BASE = process.env.BASE;
const FLOOR = process.env.FLOOR === '1';

interface Measure {
  wall: number;
  cpu: number;
  rssMb: number;
}

/** One whole process under /usr/bin/time: wall and CPU seconds, peak RSS; throws when it fails. */
function timed(label: string, command: string[]): Measure {
  const run = spawnSync('/usr/bin/time', ['-f', 'TIME %e %U %S %M', ...command], {
    encoding: 'utf8',
    maxBuffer: 256 * 2 ** 20,
  });
  const line = run.stderr.split('\n').findLast((l) => l.startsWith('TIME '));
  if (run.status !== 0 || line === undefined)
    throw new Error(`${label} exited ${run.status}: ${run.stderr.slice(-2000)}`);
  const [wall, user, sys, rssKb] = line.split(' ').slice(1).map(Number) as [number, number, number, number];
  return { wall, cpu: user + sys, rssMb: rssKb / 1024 };
}

/** `n` objects (the Namespace first) in `namespace`. */
function objectsIn(namespace: string, n: number): Record<string, unknown>[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    ...Array.from({ length: n - 1 }, (_, i) => mixedObject(i, namespace)),
  ];
}

/** `n` objects in `namespace`, as one YAML file in its own directory; returns the file. */
async function manifests(work: string, namespace: string, n: number): Promise<string> {
  const dir = path.join(work, namespace);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'all.yaml');
  await writeFile(
    file,
    objectsIn(namespace, n)
      .map((o) => stringify(o))
      .join('---\n'),
  );
  return file;
}

/** The apply-floor command for `n` objects of its own in `floor<passes>-<n>`, already parsed to JSON. */
async function floorCommand(work: string, kubeconfig: string, passes: 1 | 2, n: number): Promise<string[]> {
  const file = path.join(work, `floor${passes}-${n}.json`);
  await writeFile(file, JSON.stringify(objectsIn(`floor${passes}-${n}`, n)));
  const config = parse(await readFile(kubeconfig, 'utf8')) as {
    clusters: { cluster: { server: string } }[];
    users: { user: { token: string } }[];
  };
  return [
    process.execPath,
    path.join(ROOT, 'bench/support/apply-floor.mjs'),
    file,
    config.clusters[0]!.cluster.server,
    config.users[0]!.user.token,
    String(passes),
  ];
}

/**
 * The checkout at `root` laid out as npm installs its package (package.json's `files`: bin/ and dist/, no src/), in
 * `work/pkg-<label>`; returns its bin/wavesync.js. A checkout's bin first checks that no source file is newer than
 * the build (a walk of src/ and sim/, ~15 ms); an installed package has no sources and runs the build at once.
 */
async function installed(root: string, label: string): Promise<string> {
  const pkg = path.join(work, `pkg-${label}`);
  await mkdir(path.join(pkg, 'bin'), { recursive: true });
  await copyFile(path.join(root, 'bin/wavesync.js'), path.join(pkg, 'bin/wavesync.js'));
  await copyFile(path.join(root, 'package.json'), path.join(pkg, 'package.json'));
  for (const dir of ['dist', 'node_modules'])
    await symlink(path.join(root, dir), path.join(pkg, dir)).catch(() => {});
  return path.join(pkg, 'bin/wavesync.js');
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const load = () => loadavg()[0]!.toFixed(1);

const work = await mkdtemp(path.join(tmpdir(), 'small-sync-'));
const sim = await startSimProcess(ROOT, work, 10);
try {
  console.log(`Small syncs end to end, ${RUNS} runs after a warm-up, Node ${process.version}\n`);
  const columns = [
    'kubectl',
    'wavesync',
    ...(BASE ? ['before'] : []),
    ...(FLOOR ? ['floor 1x', 'floor 2x'] : []),
  ];
  const compared = columns.slice(1);
  console.log(
    `| objects | ${columns.map((c) => `${c} CPU / wall / peak RSS`).join(' | ')} | ${compared.map((c) => `CPU ratio ${c}/kubectl | wall ratio ${c}/kubectl`).join(' | ')} | load |`,
  );
  console.log(`|${' --- |'.repeat(1 + columns.length + 2 * compared.length + 1)}`);
  const kubeconfig = sim.kubeconfig;
  /**
   * `wavesync sync` of the checkout at `root` as its installed package (bin/ and dist/, no src/), on `n` objects of
   * its own in the namespace `<label>-<n>`.
   */
  const wavesyncSync = async (root: string, label: string, n: number) => [
    process.execPath,
    await installed(root, label),
    'sync',
    path.dirname(await manifests(work, `${label}-${n}`, n)),
    '--kubeconfig',
    kubeconfig,
  ];
  for (const n of SIZES) {
    const commands: [string, string[]][] = [
      [
        'kubectl',
        [
          KUBECTL,
          '--kubeconfig',
          kubeconfig,
          'apply',
          '--server-side',
          '-f',
          await manifests(work, `kubectl-${n}`, n),
        ],
      ],
      ['wavesync', await wavesyncSync(ROOT, 'wavesync', n)],
    ];
    if (BASE) commands.push(['before', await wavesyncSync(BASE, 'before', n)]);
    if (FLOOR)
      commands.push(
        ['floor 1x', await floorCommand(work, kubeconfig, 1, n)],
        ['floor 2x', await floorCommand(work, kubeconfig, 2, n)],
      );
    const loadBefore = load();
    for (const [label, command] of commands) timed(label, command); // warm-up: the first apply
    const results = commands.map(() => [] as Measure[]);
    for (let run = 0; run < RUNS; run++)
      for (const [i, [label, command]] of commands.entries()) results[i]!.push(timed(label, command));
    const cell = (ms: Measure[]) =>
      `${median(ms.map((m) => m.cpu)).toFixed(2)} s / ${median(ms.map((m) => m.wall)).toFixed(2)} s / ${median(ms.map((m) => m.rssMb)).toFixed(0)} MB`;
    const ratio = (a: Measure[], key: 'cpu' | 'wall') =>
      median(a.map((m, i) => m[key] / results[0]![i]![key])).toFixed(2);
    const cells = results.map(cell);
    const ratios = results.slice(1).map((r) => `${ratio(r, 'cpu')} | ${ratio(r, 'wall')}`);
    console.log(
      `| ${n.toLocaleString('en')} | ${cells.join(' | ')} | ${ratios.join(' | ')} | ${loadBefore}–${load()} |`,
    );
  }
} finally {
  sim.stop();
  await rm(work, { recursive: true, force: true });
}
