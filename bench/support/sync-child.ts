/**
 * One sync as the worker runs it, in its own process (so its RSS is its own): load the manifests of a directory,
 * run the operation through the real client-node adapter, print one JSON line
 * `{phase, message, ms, cpuMs, peakRssMb, startRssMb}` — ms from the start of loading to the end of the operation
 * (without the post-operation health watch); cpuMs the process's user + system CPU over the same span; peakRssMb
 * the kernel's high-water mark of the process's resident set (VmHWM of /proc/self/status: exact, no sampling);
 * startRssMb the RSS before loading (Node + the modules loaded).
 * The scale bench runs it compiled (bench/support/tsconfig.sync-child.json), as the worker runs dist/: under tsx
 * the same process holds ~80 MB more (tsx's loader thread and the transpiled sources).
 * Usage: node dist/bench-sync-child/bench/support/sync-child.js KUBECONFIG DIR APP NAMESPACE
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { contentRevisionOf, loadManifests } from '../../src/applications/manifests/index.js';
import { runOperation } from '../../src/engine/index.js';
import { createKubeCluster } from '../../src/kube/kube-cluster.js';
import { loadKubeConfig } from '../../src/kube/load-kube-config.js';

const [kubeconfig, dir, application, namespace] = process.argv.slice(2);
if (!kubeconfig || !dir || !application || !namespace)
  throw new Error('usage: sync-child KUBECONFIG DIR APP NAMESPACE');

/** The process's peak resident set so far, in MB (VmHWM, Linux). */
function peakRssMb(): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  return kb === undefined ? Number.NaN : Number(kb) / 1024;
}

const startRssMb = process.memoryUsage.rss() / 2 ** 20;
const cpuBefore = process.cpuUsage();
const started = performance.now();
const loaded = await loadManifests(dir);
const state = await runOperation({
  application,
  targets: loaded.objects,
  namespace,
  revision: contentRevisionOf(loaded.objects),
  operation: { prune: false, dryRun: false, syncOptions: [] },
  cluster: createKubeCluster(loadKubeConfig({ kubeconfig })),
  reporter: {
    report: async (event) => {
      if (process.env.TIMELINE)
        process.stderr.write(`${(performance.now() - started).toFixed(0)} ${event.type}\n`);
    },
  },
  options: { healthTimeoutMs: 0 },
});
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const result = {
  phase: state.phase,
  message: state.message,
  ms,
  cpuMs: (cpu.user + cpu.system) / 1000,
  peakRssMb: peakRssMb(),
  startRssMb,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
