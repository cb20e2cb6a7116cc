/**
 * One sync as the worker runs it, in its own process (so its RSS is its own): load the manifests of a directory,
 * run the operation through the real client-node adapter, print one JSON line
 * `{phase, message, ms, cpuMs, peakRssMb}` — ms from the start of loading to the end of the operation (without
 * the post-operation health watch), peak RSS sampled every 20 ms.
 * Usage: tsx bench/support/sync-child.ts KUBECONFIG DIR APP NAMESPACE
 */
import { performance } from 'node:perf_hooks';
import { runOperation } from '../../src/engine/index.js';
import { createKubeCluster } from '../../src/kube/kube-cluster.js';
import { loadKubeConfig } from '../../src/kube/load-kube-config.js';
import { contentRevisionOf, loadManifests } from '../../src/manifests/index.js';

const [kubeconfig, dir, application, namespace] = process.argv.slice(2);
if (!kubeconfig || !dir || !application || !namespace)
  throw new Error('usage: sync-child KUBECONFIG DIR APP NAMESPACE');

let peakRss = process.memoryUsage.rss();
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 20);
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
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage.rss());
const result = {
  phase: state.phase,
  message: state.message,
  ms,
  cpuMs: (cpu.user + cpu.system) / 1000,
  peakRssMb: peakRss / 2 ** 20,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
