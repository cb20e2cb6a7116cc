/**
 * CLI start-up benchmark: how long `wavesync --help` and `wavesync plan <dir>` take from the compiled dist/
 * (what bin/wavesync.js runs when dist/ is current), against `node -e ''` measured in the same run, alternating
 * the commands so that a change of machine load hits all of them alike. Builds dist/ first when it is missing or
 * older than a source file (`npm run build`). Reports per command the median wall clock and the median CPU time
 * (user + system of the child, from /proc/self/stat's cutime/cstime, 10 ms resolution) of RUNS runs, and the
 * modules the command loads. Target: median start ≤ 0.5 s.
 * Run: `npx tsx bench/cli-startup.bench.ts [runs]` (default 21).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin/wavesync.js');
const RUNS = Number(process.argv[2] ?? 21);

const COMMANDS: readonly { label: string; args: string[] }[] = [
  { label: "node -e ''", args: ['-e', ''] },
  { label: 'wavesync --help', args: [BIN, '--help'] },
  { label: 'wavesync --version', args: [BIN, '--version'] },
  { label: 'wavesync plan examples/rails', args: [BIN, 'plan', path.join(ROOT, 'examples/rails')] },
];

/** CPU time (ms) of this process's waited-for children: cutime + cstime of /proc/self/stat. */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // After "pid (comm) ", field 3 is index 0: cutime is field 16, cstime field 17.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Modules (files under the checkout or node_modules packages) a command loads, counted by top folder. */
function modulesLoaded(args: string[]): string {
  const hook = `data:text/javascript,${encodeURIComponent(
    `import{register}from'node:module';register('data:text/javascript,'+encodeURIComponent('export async function resolve(s,c,n){const r=await n(s,c);if(r.url.startsWith("file:"))process._rawDebug("LOAD "+r.url);return r}'))`,
  )}`;
  const run = spawnSync(process.execPath, ['--import', hook, ...args], { encoding: 'utf8' });
  const urls = new Set(run.stderr.split('\n').filter((l) => l.startsWith('LOAD ')));
  const groups = new Map<string, number>();
  for (const url of urls) {
    const file = url.slice('LOAD file://'.length);
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];
    const key = pkg ?? path.relative(ROOT, file).split('/').slice(0, 3).join('/');
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  return [...groups].map(([key, n]) => `${key} ${n}`).join(', ');
}

/** Builds dist/ when bin/wavesync.js would not run it (missing, or older than a source file). */
function ensureBuilt(): void {
  if (modulesLoaded([BIN, '--version']).includes('dist/')) return;
  process.stdout.write('dist/ is missing or older than the sources: npm run build\n');
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

ensureBuilt();
const wall = COMMANDS.map(() => [] as number[]);
const cpu = COMMANDS.map(() => [] as number[]);
for (let run = 0; run < RUNS; run++) {
  for (const [i, command] of COMMANDS.entries()) {
    const cpuBefore = childrenCpuMs();
    const started = performance.now();
    const result = spawnSync(process.execPath, command.args, { stdio: ['ignore', 'ignore', 'pipe'] });
    wall[i]!.push(performance.now() - started);
    cpu[i]!.push(childrenCpuMs() - cpuBefore);
    if (result.status !== 0) throw new Error(`${command.label} exited ${result.status}: ${result.stderr}`);
  }
}

const load = loadavg()[0]!.toFixed(1);
process.stdout.write(
  `CLI start-up, ${RUNS} runs each, Node ${process.version}, ${cpus().length} CPUs, load average ${load}\n\n`,
);
process.stdout.write(
  '| command (compiled dist/) | median wall | over node | median CPU | modules loaded |\n',
);
process.stdout.write('| --- | --- | --- | --- | --- |\n');
const baseline = median(wall[0]!);
for (const [i, command] of COMMANDS.entries()) {
  const w = median(wall[i]!);
  const over = i === 0 ? '—' : `+${Math.round(w - baseline)} ms`;
  const modules = i === 0 ? '—' : modulesLoaded(command.args);
  process.stdout.write(
    `| ${command.label} | ${Math.round(w)} ms | ${over} | ${Math.round(median(cpu[i]!))} ms | ${modules} |\n`,
  );
}
const worst = Math.max(...COMMANDS.slice(1).map((_, i) => median(wall[i + 1]!)));
process.stdout.write(
  `\nTarget: median start ≤ 500 ms — ${worst <= 500 ? 'met' : 'missed'} (slowest ${Math.round(worst)} ms)\n`,
);
