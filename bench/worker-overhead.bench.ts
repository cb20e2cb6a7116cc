/**
 * The worker's fixed cost per sync, on the real processes (test/e2e/support/fleet-stack.ts: 1 bot, 1 worker of
 * concurrency 1, the simulator, the fake Slack Web API with Slack's chat.postMessage pace): OVERHEAD_APPS (default
 * 10) small Applications (one ConfigMap each, a local source), one `/sync <app>` each, OVERHEAD_SPACING_MS (default
 * 5 000) apart so that one sync never waits for another or for the channel's pace. Per sync:
 *   - dequeue → first apply: the worker takes the job (job.processedOn) → the simulator receives its first
 *     server-side apply (not a dry run) of the app's objects (its Namespace, created by CreateNamespace=true);
 *     split at the worker's log line `operation started` (the queue's bookkeeping, the Application and its render
 *     before it; the engine's start — argocd-cm, discovery, the tracked objects, the plan — after it);
 *   - last apply → job finished: that last apply → job.finishedOn (health assessed, the summary in the thread's
 *     outbox);
 *   - last apply → summary posted: → the fake Slack received the summary line (`Succeeded in …`) of its thread.
 * Prints p50 / p90 / max of each, and the API requests the worker sent from dequeue to first apply (per sync: the
 * first, and the rest). OVERHEAD_TRACE=1 prints the request trace of the first and of the median sync.
 * Results go to "Worker overhead per sync" in BENCHMARKS.md (target ≤ 100 ms).
 * Run: `npx tsx bench/worker-overhead.bench.ts` (the compiled worker when dist/ is current: `npm run build`).
 */

import { startFleetStack } from '../test/e2e/support/fleet-stack.js';
import { percentile } from './support/percentile.js';

const apps = Number(process.env.OVERHEAD_APPS ?? 10);
const spacingMs = Number(process.env.OVERHEAD_SPACING_MS ?? 5_000);

const stack = await startFleetStack({ apps, bots: 1, workers: 1, concurrency: 1 });
try {
  await stack.burst(apps * spacingMs);
  const jobs = await stack.waitForJobs(apps * spacingMs + 120_000);
  // The summary of every thread, posted (the outbox delivers it after the job ended).
  const summaries = () =>
    stack.slack.calls('chat.postMessage').filter((c) => c.status === 200 && c.args.thread_ts !== undefined);
  await stack.slack.waitFor(
    () =>
      summaries().filter((c) => String(c.args.text).includes('Succeeded in')).length >= apps
        ? true
        : undefined,
    120_000,
  );
  const roots = stack.slack.calls('chat.postMessage').filter((c) => c.status === 200 && !c.args.thread_ts);
  const dequeueToApply: number[] = [];
  const dequeueToStarted: number[] = [];
  const startedToApply: number[] = [];
  const requestsBefore: number[] = [];
  const requestsAfter: number[] = [];
  const traces: { app: string; lines: string[] }[] = [];
  const startedAt = (app: string) =>
    stack.workers[0]!.logs.find((l) => l.msg === 'operation started' && l.application === app)?.time as
      | number
      | undefined;
  const applyToFinished: number[] = [];
  const applyToSummary: number[] = [];
  // In the order the worker took them: the first is the worker's first sync (its caches cold).
  for (const job of [...jobs].sort((a, b) => (a.processedOn ?? 0) - (b.processedOn ?? 0))) {
    const app = (job.data as { request?: { application?: string } }).request?.application ?? '';
    // Its objects' applies: the Namespace (CreateNamespace=true) and the ConfigMap in it, not the dry runs.
    const inApp = new RegExp(`/namespaces/${app}[/?]`);
    const applies = stack.sim.requests.filter(
      (r) => r.method === 'PATCH' && inApp.test(r.path) && !r.path.includes('dryRun=All'),
    );
    const first = applies[0]?.at;
    const last = applies.at(-1)?.at;
    if (first === undefined || last === undefined || job.processedOn === undefined) continue;
    dequeueToApply.push(first - job.processedOn);
    const started = startedAt(app);
    if (started !== undefined) {
      dequeueToStarted.push(started - job.processedOn);
      startedToApply.push(first - started);
    }
    const processedOn = job.processedOn;
    const before = stack.sim.requests.filter((r) => r.at >= processedOn && r.at <= first);
    requestsBefore.push(before.length);
    traces.push({
      app,
      lines: before.map((r) => `  +${r.at - processedOn} ms ${r.method} ${r.path} ${r.code}`),
    });
    if (job.finishedOn !== undefined) {
      applyToFinished.push(job.finishedOn - last);
      const finishedOn = job.finishedOn;
      requestsAfter.push(stack.sim.requests.filter((r) => r.at > last && r.at <= finishedOn).length);
    }
    const root = roots.find((c) => String(c.args.text).includes(app));
    const ts = (root?.response as { ts?: string } | undefined)?.ts;
    const summary = summaries().find(
      (c) => c.args.thread_ts === ts && String(c.args.text).includes('Succeeded in'),
    );
    if (summary) applyToSummary.push(summary.at - last);
  }
  const row = (name: string, values: number[]) =>
    console.log(
      `${name}: n ${values.length} · p50 ${percentile(values, 50).toFixed(0)} ms · p90 ${percentile(values, 90).toFixed(0)} ms · max ${Math.max(...values).toFixed(0)} ms`,
    );
  console.log(`${apps} syncs of one ConfigMap, ${spacingMs} ms apart · 1 bot · 1 worker (concurrency 1)`);
  row('dequeue → first apply', dequeueToApply);
  row('  dequeue → operation started (queue, Application, render)', dequeueToStarted);
  row('  operation started → first apply (argocd-cm, discovery, tracked objects, plan)', startedToApply);
  console.log(
    `API requests from dequeue to first apply: first sync ${requestsBefore[0]}, others p50 ${percentile(requestsBefore.slice(1), 50)} · max ${Math.max(...requestsBefore.slice(1))}`,
  );
  row('last apply → job finished (summary in the outbox)', applyToFinished);
  console.log(
    `API requests from last apply to job finished: p50 ${percentile(requestsAfter, 50)} · max ${Math.max(...requestsAfter)}`,
  );
  row('last apply → summary posted in Slack', applyToSummary);
  if (process.env.OVERHEAD_TRACE === '1') {
    const median = [...traces.slice(1)].sort((a, b) => a.lines.length - b.lines.length)[
      Math.floor((traces.length - 1) / 2)
    ];
    for (const trace of [traces[0], median]) {
      if (!trace) continue;
      console.log(`requests of ${trace.app}, dequeue → first apply:`);
      console.log(trace.lines.join('\n'));
    }
  }
} finally {
  await stack.close();
}
