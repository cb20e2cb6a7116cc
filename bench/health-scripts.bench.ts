/**
 * Health scripts benchmark: 10,000 evaluations of objects of scripted kinds — every testdata input of Argo CD's
 * health folders in the shared fixtures that a script judges, cycled — through the function the engine calls
 * (createScriptedHealth: script lookup, then the Lua VM in the worker thread with a fresh environment per call;
 * the 10,000 asked at once, as a pass over a big wave asks). Reported as the median of 5 runs, wall clock and CPU
 * time per evaluation (CPU of the whole process: main thread and worker), and the main thread's heap after a
 * forced GC and the process's RSS before and after all runs (what the evaluations leave behind). Baselines in the
 * same run:
 *   - the same VM in the main thread, synchronously (what the worker costs on top);
 *   - a fresh fengari state per call (Argo CD's way: new state, libraries opened, script compiled), 1,000 calls;
 *   - wavesync's own Go-port check (a Deployment), 10,000 calls.
 * Goal: ≤ 200 µs per evaluation. Run: `npm run bench:health` (node --expose-gc is passed by the script).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../src/domain/index.js';
import { getResourceHealth } from '../src/engine/index.js';
import {
  createHealthScriptCatalog,
  createHealthScriptRunner,
  createHealthScriptVm,
  createScriptedHealth,
} from '../src/health-scripts/index.js';
import { sharedFixturesDir } from '../test/support/shared-fixtures.js';

const EVALUATIONS = 10_000;
const FRESH_STATE_EVALUATIONS = 1_000;
const RUNS = 5;

const root = sharedFixturesDir('argo-cd-resource-customizations', 'resource_customizations');

function inputs(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return inputs(full);
    return full.includes(`${path.sep}testdata${path.sep}`) && name.endsWith('.yaml') ? [full] : [];
  });
}

const catalog = createHealthScriptCatalog({ builtInDir: root });
const objects: KubeObject[] = inputs(root).flatMap((file) => {
  const [doc] = parseAllDocuments(readFileSync(file, 'utf8'), { uniqueKeys: false });
  if (!doc || !('errors' in doc) || doc.errors.length > 0) return [];
  const obj = doc.toJS() as KubeObject;
  return obj?.apiVersion && catalog.scriptFor(obj.apiVersion, obj.kind) ? [obj] : [];
});
const kinds = new Set(objects.map((o) => `${o.apiVersion.split('/')[0]}/${o.kind}`)).size;

const gc = (globalThis as { gc?: () => void }).gc;
const heapMb = () => {
  gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

interface Timing {
  wallUs: number;
  cpuUs: number;
}

function measure(count: number, evaluate: (i: number) => unknown): Timing {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < count; i++) evaluate(i);
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wallUs: (wall * 1000) / count, cpuUs: (used.user + used.system) / count };
}

async function measureAsync(count: number, evaluate: (i: number) => Promise<unknown>): Promise<Timing> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(Array.from({ length: count }, (_, i) => evaluate(i)));
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wallUs: (wall * 1000) / count, cpuUs: (used.user + used.system) / count };
}

function median(timings: Timing[]): Timing {
  const mid = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  return { wallUs: mid(timings.map((t) => t.wallUs)), cpuUs: mid(timings.map((t) => t.cpuUs)) };
}

const runner = createHealthScriptRunner();
const scripted = createScriptedHealth({ builtInDir: root, runner });
const evaluate = async (i: number) =>
  scripted(objects[i % objects.length] as KubeObject, { hasOwnCheck: false });
// Warm-up: the worker started, every script compiled once, the JIT warm.
await measureAsync(objects.length * 2, evaluate);
const heapBefore = heapMb();
const rssBefore = process.memoryUsage().rss / 2 ** 20;
const runs: Timing[] = [];
for (let r = 0; r < RUNS; r++) runs.push(await measureAsync(EVALUATIONS, evaluate));
const heapAfter = heapMb();
const rss = process.memoryUsage().rss / 2 ** 20;
await runner.close();

const inThread = createScriptedHealth({ builtInDir: root, vm: createHealthScriptVm() });
const evaluateInThread = (i: number) =>
  inThread(objects[i % objects.length] as KubeObject, { hasOwnCheck: false });
measure(objects.length * 2, evaluateInThread);
const mainThread = median([0, 1, 2].map(() => measure(EVALUATIONS, evaluateInThread)));

const freshState = median(
  [0, 1, 2].map(() =>
    measure(FRESH_STATE_EVALUATIONS, (i) => {
      const obj = objects[i % objects.length] as KubeObject;
      createHealthScriptVm().run(catalog.scriptFor(obj.apiVersion, obj.kind)!, obj);
    }),
  ),
);

const deployment: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', generation: 2 },
  spec: { replicas: 3 },
  status: { observedGeneration: 2, replicas: 3, updatedReplicas: 3, availableReplicas: 3, readyReplicas: 3 },
};
const goPort = median(
  await Promise.all([0, 1, 2].map(() => measureAsync(EVALUATIONS, () => getResourceHealth(deployment)))),
);

const result = median(runs);
const fmt = (t: Timing) => `${t.wallUs.toFixed(1)} µs wall, ${t.cpuUs.toFixed(1)} µs CPU`;
console.log(
  `health scripts: ${objects.length} objects of ${kinds} scripted kinds, ${EVALUATIONS} evaluations × ${RUNS} runs`,
);
console.log(`load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} CPUs, Node ${process.version}`);
console.log(
  `wavesync (worker thread, fresh environment per call): ${fmt(result)} per evaluation (median of ${RUNS})`,
);
console.log(`  runs: ${runs.map((t) => t.wallUs.toFixed(0)).join(', ')} µs wall`);
console.log(
  `  main-thread heap after GC: ${heapBefore.toFixed(1)} MB before the runs, ${heapAfter.toFixed(1)} MB after ${RUNS * EVALUATIONS} evaluations; RSS (both threads) ${rssBefore.toFixed(0)} MB before, ${rss.toFixed(0)} MB after${gc ? '' : ' (no --expose-gc: heap figures include garbage)'}`,
);
console.log(`baseline, the same VM in the main thread: ${fmt(mainThread)} per evaluation`);
console.log(`baseline, fresh fengari state per call (Argo CD's way): ${fmt(freshState)} per evaluation`);
console.log(`baseline, wavesync's own Deployment check: ${fmt(goPort)} per evaluation`);
