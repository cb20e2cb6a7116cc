/**
 * Sync engine overhead: a 10-wave app on the simulator whose resources take known times to become healthy (wave
 * i holds a Job running `sleep d_i`), synced with runOperation over HTTP through the real client-node.
 *   - critical path: Σ over waves of the time the simulator needs to complete that wave's Job, measured with
 *     no engine at all (create the Job in the simulator's store, wait on its store for Complete);
 *   - total: runOperation from start to OperationCompleted.
 * Reports total / critical path (target ≤ 1.05), the median of several runs, plus the load average.
 * Run: `npm run bench:sync` (or `npx tsx bench/sync-overhead.bench.ts`).
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { KubeConfig } from '@kubernetes/client-node';
import { type Simulator, startSimulator } from '../sim/index.js';
import type { KubeObject, SyncEvent } from '../src/domain/index.js';
import { runOperation, type SourcedObject } from '../src/engine/index.js';
import { createKubeCluster } from '../src/kube/kube-cluster.js';

const WAVES = 10;
const SPEED = 4;
/** Simulated seconds each wave's Job runs: 4.0 s … 7.6 s (1.0–1.9 s of wall time at speed 4). */
const SLEEP_SECONDS = Array.from({ length: WAVES }, (_, i) => 4 + i * 0.4);
const RUNS = 3;

function job(name: string, wave: number, seconds: number, namespace: string): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace,
      annotations: { 'argocd.argoproj.io/hook': 'Sync', 'argocd.argoproj.io/sync-wave': String(wave) },
    },
    spec: {
      backoffLimit: 0,
      template: {
        spec: {
          restartPolicy: 'Never',
          containers: [{ name: 'main', image: 'alpine:3.20', command: ['sleep', String(seconds)] }],
        },
      },
    },
  };
}

const complete = (o: KubeObject | undefined) =>
  ((o?.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some(
    (c) => c.type === 'Complete' && c.status === 'True',
  );

/** Σ of each wave's readiness time with an ideal observer (the simulator's own store). */
async function criticalPath(sim: Simulator, namespace: string): Promise<number> {
  sim.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  let total = 0;
  for (const [i, seconds] of SLEEP_SECONDS.entries()) {
    const obj = job(`ideal-${i}`, i, seconds, namespace);
    const started = performance.now();
    sim.put(obj);
    await sim.waitFor(
      { apiVersion: 'batch/v1', kind: 'Job', namespace, name: `ideal-${i}` },
      complete,
      60_000,
    );
    total += performance.now() - started;
  }
  return total;
}

async function engineRun(sim: Simulator, namespace: string): Promise<number> {
  sim.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig({ namespace }));
  const targets: SourcedObject[] = SLEEP_SECONDS.map((s, i) => ({
    object: job(`wave-${i}`, i, s, namespace),
    source: { file: 'bench.yaml', line: i + 1 },
  }));
  let completedAt = 0;
  const started = performance.now();
  const state = await runOperation({
    application: namespace,
    targets,
    namespace,
    revision: 'bench',
    operation: { prune: false, dryRun: false, syncOptions: [] },
    cluster: createKubeCluster(kc),
    reporter: {
      report: async (e: SyncEvent) => {
        if (e.type === 'OperationCompleted') completedAt = performance.now();
      },
    },
    options: { healthTimeoutMs: 0 },
  });
  if (state.phase !== 'Succeeded') throw new Error(`sync ${state.phase}: ${state.message}`);
  return completedAt - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const sim = await startSimulator({ speed: SPEED });
try {
  const ideal: number[] = [];
  const totals: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    ideal.push(await criticalPath(sim, `ideal-${run}`));
    totals.push(await engineRun(sim, `engine-${run}`));
  }
  const [c, t] = [median(ideal), median(totals)];
  console.log(
    `sync overhead: ${WAVES} waves, speed ${SPEED}, ${RUNS} runs, load average ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log(`critical path (median) ${c.toFixed(0)} ms; engine total (median) ${t.toFixed(0)} ms`);
  console.log(`ratio total / critical path = ${(t / c).toFixed(3)} (target ≤ 1.05)`);
  console.log(`per-run ratios: ${totals.map((x, i) => (x / ideal[i]!).toFixed(3)).join(', ')}`);
} finally {
  await sim.stop();
}
