/**
 * The requests of a small re-apply (issue 32): `wavesync sync DIR` of N objects (the small-sync bench's mix, a
 * Namespace first) applied once, then again with nothing changed; of the second run, the requests the simulator
 * answered before the first server-side dry run, by sort (discovery, lists, other reads), and in all. Watches are
 * not counted: the simulator logs a request when it answers it, and a watch is still open when the command exits.
 *
 * Run: `npm run build && npx tsx bench/small-sync-requests.bench.ts [CHECKOUT...]` — each CHECKOUT (default: this
 * one), built with `npm run build`, on the same in-process simulator; `N=50`, `VERBOSE=1` prints each request.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { startSimulator } from '../sim/index.js';
import { mixedObject } from './support/sim-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.N ?? 50);
const checkouts = process.argv.slice(2);
const exec = promisify(execFile);

const work = await mkdtemp(path.join(tmpdir(), 'small-sync-requests-'));
// In this process: the CLI runs as a child (asynchronously, so the simulator answers meanwhile).
const sim = await startSimulator({ speed: 10 });
try {
  const kubeconfig = path.join(work, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfig, {});
  console.log(`| checkout | requests before the first dry run | discovery | lists | other | in all |`);
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [i, root] of (checkouts.length > 0 ? checkouts : [ROOT]).entries()) {
    const namespace = `requests-${i}`;
    const dir = path.join(work, namespace);
    await mkdir(dir, { recursive: true });
    const objects = [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
      ...Array.from({ length: N - 1 }, (_, j) => mixedObject(j, namespace)),
    ];
    await writeFile(path.join(dir, 'all.yaml'), objects.map((o) => stringify(o)).join('---\n'));
    const sync = () =>
      exec(process.execPath, [path.join(root, 'bin/wavesync.js'), 'sync', dir, '--kubeconfig', kubeconfig], {
        env: { ...process.env, WAVESYNC_CACHE_DIR: path.join(work, `cache-${i}`) },
      });
    await sync();
    const from = sim.requests.length;
    await sync();
    const requests = sim.requests.slice(from);
    const before = requests.slice(
      0,
      requests.findIndex((r) => r.path.includes('dryRun=All')),
    );
    const discovery = before.filter((r) => !r.path.includes('?') && /^\/apis?(\/[^/]+){0,2}$/.test(r.path));
    const lists = before.filter((r) => r.path.includes('limit='));
    const other = before.length - discovery.length - lists.length;
    console.log(
      `| ${root} | ${before.length} | ${discovery.length} | ${lists.length} | ${other} | ${requests.length} |`,
    );
    if (process.env.VERBOSE) for (const r of before) console.log(`    ${r.method} ${r.path}`);
  }
} finally {
  await sim.stop();
  await rm(work, { recursive: true, force: true });
}
