/**
 * A burst of `/sync` commands on the real processes (test/e2e/support/fleet-stack.ts): BURST_APPS (default 100)
 * commands for as many Applications sent within BURST_WINDOW_MS (default 10 000) to one channel, 2 bots and 4
 * workers of concurrency 4 (BURST_BOTS, BURST_WORKERS, BURST_CONCURRENCY), the fake Slack Web API with Slack's
 * chat.postMessage limit (1 per second per channel, a burst of 3, 429 + Retry-After). Prints: how many were acked
 * and ran, the ack p50/p99, enqueue → first apply p50/p99, command → first apply p50/p99, the time until every
 * header is in the channel, the total time vs the sum of the single syncs, the 429s Slack answered, and the most
 * jobs running at once against the slots (workers × concurrency). Results go to "Sync burst" in BENCHMARKS.md.
 * Run: `npm run bench:burst`.
 */

import { startFleetStack } from '../test/e2e/support/fleet-stack.js';
import { percentile } from './support/percentile.js';

const apps = Number(process.env.BURST_APPS ?? 100);
const windowMs = Number(process.env.BURST_WINDOW_MS ?? 10_000);
const bots = Number(process.env.BURST_BOTS ?? 2);
const workers = Number(process.env.BURST_WORKERS ?? 4);
const concurrency = Number(process.env.BURST_CONCURRENCY ?? 4);

const stack = await startFleetStack({ apps, bots, workers, concurrency });
try {
  const burst = await stack.burst(windowMs);
  await stack.waitForJobs(600_000);
  await stack.slack.waitFor(
    () =>
      stack.slack.channelMessages('C0FLEET').filter((m) => !m.threadTs).length >= apps ? true : undefined,
    300_000,
  );
  const f = await stack.measure(burst);
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const p = (values: number[], q: number) => s(percentile(values, q));
  const accepted = burst.acks.filter((t) => t.startsWith('Got it')).length;
  console.log(
    `${apps} × /sync within ${s(windowMs)} to one channel · ${bots} bots · ${workers} workers (concurrency ${concurrency})`,
  );
  console.log(
    `acked "Got it": ${accepted}/${apps} · jobs ${f.jobs} · completed ${f.completed} · headers ${f.headers}`,
  );
  console.log(
    `ack p50 ${p(burst.ackMs, 50)} · p99 ${p(burst.ackMs, 99)} · max ${s(Math.max(...burst.ackMs))}`,
  );
  console.log(`enqueue → first apply p50 ${p(f.enqueueToApplyMs, 50)} · p99 ${p(f.enqueueToApplyMs, 99)}`);
  console.log(`enqueue → taken by a worker p50 ${p(f.queueWaitMs, 50)} · p99 ${p(f.queueWaitMs, 99)}`);
  console.log(`command → first apply p50 ${p(f.commandToApplyMs, 50)} · p99 ${p(f.commandToApplyMs, 99)}`);
  console.log(`every header posted after ${s(f.allHeadersMs)} · Slack 429s ${f.rateLimited}`);
  console.log(`all syncs finished after ${s(f.totalMs)} · sum of the single syncs ${s(f.sumOfSyncsMs)}`);
  console.log(
    `jobs running at once: peak ${f.peakRunning} of ${workers * concurrency} slots · sync (taken → finished) p50 ${p(f.syncMs, 50)} · p99 ${p(f.syncMs, 99)}`,
  );
} finally {
  await stack.close();
}
