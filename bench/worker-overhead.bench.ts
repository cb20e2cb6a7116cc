/**
 * The worker's fixed cost per sync, on the real processes (test/e2e/support/fleet-stack.ts: 1 bot, 1 worker of
 * concurrency 1, the simulator, the fake Slack Web API with Slack's chat.postMessage pace): OVERHEAD_APPS (default
 * 10) small Applications (one ConfigMap each, a local source), one `/sync <app>` each, OVERHEAD_SPACING_MS (default
 * 5 000) apart so that one sync never waits for another or for the channel's pace. Per sync:
 *   - dequeue → first apply: the worker takes the job (job.processedOn) → the simulator receives its first
 *     server-side apply (not a dry run) of the app's objects (its Namespace, created by CreateNamespace=true);
 *   - last apply → job finished: that last apply → job.finishedOn (health assessed, the summary in the thread's
 *     outbox);
 *   - last apply → summary posted: → the fake Slack received the summary line (`Succeeded in …`) of its thread.
 * Prints p50 / p90 / max of each. Results go to "Worker overhead per sync" in BENCHMARKS.md (target ≤ 100 ms).
 * Run: `npx tsx bench/worker-overhead.bench.ts`.
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
  const applyToFinished: number[] = [];
  const applyToSummary: number[] = [];
  for (const job of jobs) {
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
    if (job.finishedOn !== undefined) applyToFinished.push(job.finishedOn - last);
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
  row('last apply → job finished (summary in the outbox)', applyToFinished);
  row('last apply → summary posted in Slack', applyToSummary);
} finally {
  await stack.close();
}
