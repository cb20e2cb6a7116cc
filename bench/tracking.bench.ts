/**
 * Resource tracking benchmark: finding an Application's live objects (listTrackedLiveObjects) through the
 * simulator over HTTP with the real client-node adapter, end to end, with N ConfigMaps in the cluster (one in ten
 * the Application's, the others another Application's), N = 1,000, 4,000, 16,000. Annotation tracking cannot
 * ask the API server to filter, so every object is listed and looked at once; the baseline in the same run is
 * the label selector earlier wavesync used (the server filters, 1/10 of the objects cross the wire). CPU time is
 * the simulator's and the client's together (same process). Cost per object must stay flat across sizes.
 * Run: `npx tsx bench/tracking.bench.ts`.
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { KubeConfig } from '@kubernetes/client-node';
import { startSimulator } from '../sim/index.js';
import { Annotations, TRACKING_LABEL } from '../src/domain/index.js';
import { listTrackedLiveObjects } from '../src/engine/index.js';
import { createKubeCluster } from '../src/kube/kube-cluster.js';

const SIZES = [1_000, 4_000, 16_000];
const RUNS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function measure(run: () => Promise<number>): Promise<{ wall: number; cpu: number; found: number }> {
  const wall: number[] = [];
  const cpu: number[] = [];
  let found = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    found = await run();
    const used = process.cpuUsage(cpuStarted);
    wall.push(performance.now() - started);
    cpu.push((used.user + used.system) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu), found };
}

const sim = await startSimulator({ speed: 1 });
const kc = new KubeConfig();
kc.loadFromString(sim.kubeconfig({ namespace: 'default' }));
const cluster = createKubeCluster(kc);
const rows: string[] = [];
let added = 0;
try {
  for (const n of SIZES) {
    for (; added < n; added++) {
      const app = added % 10 === 0 ? 'bench' : 'other';
      const name = `cm-${added}`;
      sim.put({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name,
          namespace: 'default',
          labels: { [TRACKING_LABEL]: app },
          annotations: { [Annotations.trackingId]: `${app}:/ConfigMap:default/${name}` },
        },
        data: { key: 'x'.repeat(200) },
      });
    }
    const annotation = await measure(async () => (await listTrackedLiveObjects(cluster, 'bench')).length);
    const selector = await measure(async () => {
      const kinds = await cluster.listKinds();
      const lists = await Promise.all(
        kinds.map((k) => cluster.list({ ...k, namespace: '', labelSelector: `${TRACKING_LABEL}=bench` })),
      );
      return lists.flat().length;
    });
    const per = (ms: number) => `${((ms * 1000) / n).toFixed(0)} µs`;
    rows.push(
      `| ${n.toLocaleString('en')} | ${annotation.found} | ${annotation.wall.toFixed(0)} ms | ${annotation.cpu.toFixed(0)} ms | ${per(annotation.cpu)} | ${selector.wall.toFixed(0)} ms | ${selector.cpu.toFixed(0)} ms | ${per(selector.cpu)} |`,
    );
  }
} finally {
  await sim.stop();
}
console.log(
  `tracked objects, median of ${RUNS} runs · ${cpus().length} cores · load ${loadavg()[0]!.toFixed(2)}`,
);
console.log(
  '| objects in cluster | tracked | list + filter: wall | CPU | CPU per object | label selector (baseline): wall | CPU | CPU per object |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const row of rows) console.log(row);
