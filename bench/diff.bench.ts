/**
 * Diff engine benchmark: computeApplicationDiff over N Deployments (N = 100, 1,000, 10,000), one in ten edited
 * live, against an in-memory Cluster whose dry run answers at once (server defaults and managedFields added, as
 * the API server does) — so the table shows the engine's own cost per object (normalise, mask, compare, render
 * YAML, unified diff), not the API server's. Cost per object must stay flat across sizes.
 * Run: `npx tsx bench/diff.bench.ts`.
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { KubeObject } from '../src/domain/index.js';
import { type Cluster, computeApplicationDiff, type SourcedObject } from '../src/engine/index.js';

const SIZES = [100, 1_000, 10_000];
const RUNS = 5;

function deployment(i: number, image: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `web-${i}`, namespace: 'bench', labels: { app: `web-${i}` } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: `web-${i}` } },
      template: {
        metadata: { labels: { app: `web-${i}` } },
        spec: {
          containers: [
            { name: 'web', image, ports: [{ containerPort: 8080 }], env: [{ name: 'MODE', value: 'prod' }] },
          ],
        },
      },
    },
  };
}

/** What the API server would return: the object with defaults, server metadata and managedFields. */
function served(obj: KubeObject): KubeObject {
  const copy = structuredClone(obj);
  copy.metadata = {
    ...copy.metadata,
    labels: { ...copy.metadata.labels, 'app.kubernetes.io/instance': 'bench' },
    uid: 'u',
    resourceVersion: '1',
    generation: 1,
    creationTimestamp: '2026-01-01T00:00:00Z',
    managedFields: [
      { manager: 'wavesync', operation: 'Apply', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
    ],
  };
  const spec = copy.spec as Record<string, unknown>;
  spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } };
  spec.revisionHistoryLimit = 10;
  copy.status = { replicas: 2, readyReplicas: 2 };
  return copy;
}

function fakeCluster(
  live: KubeObject[],
): Pick<Cluster, 'discover' | 'get' | 'apply' | 'create' | 'replace' | 'listKinds' | 'list'> {
  return {
    discover: async () => ({ name: 'deployments', namespaced: true }),
    listKinds: async () => [{ apiVersion: 'apps/v1', kind: 'Deployment', namespaced: true }],
    list: async () => live,
    get: async () => undefined,
    apply: async (obj) => served(obj),
    create: async (obj) => served(obj),
    replace: async (obj) => served(obj),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const rows: string[] = [];
for (const n of SIZES) {
  const targets: SourcedObject[] = [];
  const live: KubeObject[] = [];
  for (let i = 0; i < n; i++) {
    targets.push({ object: deployment(i, 'web:1'), source: { file: 'bench.yaml', line: i } });
    live.push(served(deployment(i, i % 10 === 0 ? 'web:hotfix' : 'web:1')));
  }
  const wall: number[] = [];
  const cpu: number[] = [];
  let changes = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const diff = await computeApplicationDiff({
      cluster: fakeCluster(live),
      application: 'bench',
      targets,
      namespace: 'bench',
      revision: 'r',
      operation: { prune: false, dryRun: true, syncOptions: [] },
      live,
    });
    const used = process.cpuUsage(cpuStarted);
    wall.push(performance.now() - started);
    cpu.push((used.user + used.system) / 1000);
    changes = diff.counts.change;
  }
  const perObject = (median(cpu) * 1000) / n;
  rows.push(
    `| ${n.toLocaleString('en')} | ${changes} | ${median(wall).toFixed(0)} ms | ${median(cpu).toFixed(0)} ms | ${perObject.toFixed(0)} µs |`,
  );
}
console.log(
  `diff engine, median of ${RUNS} runs · ${cpus().length} cores · load ${loadavg()[0]!.toFixed(2)}`,
);
console.log('| objects | changed | wall clock | CPU time | CPU per object |');
console.log('| ------- | ------- | ---------- | -------- | -------------- |');
for (const row of rows) console.log(row);
