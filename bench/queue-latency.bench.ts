/**
 * Queue latency benchmark against a real Redis (REDIS_URL, default redis://127.0.0.1:6379), one worker
 * process with concurrency 50, as percentiles over several rounds:
 *   - enqueue:   round trip of `enqueueSync` while 50 requests are sent at once;
 *   - to active: from calling `enqueueSync` until the runner starts, 50 concurrent requests for 50 applications
 *                (target p99 ≤ 250 ms);
 *   - hand-over: in one application's line, from the previous sync's end until the next one starts
 *                (10 applications × 5 requests).
 * Results go to the "Queue" section of BENCHMARKS.md. Run: `npm run bench:queue`.
 */
import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { OperationState } from '../src/domain/index.js';
import { createSyncQueue, type SyncQueue } from '../src/queue/sync-queue.js';
import type { SyncRequest } from '../src/queue/sync-request.js';
import { recordedOperation } from '../src/queue/sync-request.js';
import type { SyncRunner } from '../src/queue/sync-runner.js';
import { createSyncWorker } from '../src/queue/sync-worker.js';
import { deleteKeys } from '../test/integration/support/queue-test-env.js';
import { percentile } from './support/percentile.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROUNDS = 5;
const CONCURRENT = 50;
const RUN_MS = 50;

const started = new Map<string, number>();
const ended = new Map<string, number>();
const runner: SyncRunner = async ({ jobId, request }) => {
  started.set(jobId, performance.now());
  await new Promise((r) => setTimeout(r, RUN_MS));
  ended.set(jobId, performance.now());
  const now = new Date().toISOString();
  const state: OperationState = {
    operation: recordedOperation(request),
    phase: 'Succeeded',
    message: 'successfully synced',
    syncResult: { revision: 'bench', resources: [] },
    startedAt: now,
    finishedAt: now,
  };
  return state;
};

const request = (application: string): SyncRequest => ({
  application,
  operation: { prune: false, dryRun: false, syncOptions: [] },
  initiator: { userId: 'U1', userName: 'bench' },
  target: undefined,
  requestKey: randomUUID(),
});

async function until(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('benchmark timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function toActiveRound(queue: SyncQueue, round: number, enqueueMs: number[], activeMs: number[]) {
  const sent = await Promise.all(
    Array.from({ length: CONCURRENT }, async (_, i) => {
      const t0 = performance.now();
      const { jobId } = await queue.enqueueSync(request(`bench-${round}-${i}`));
      enqueueMs.push(performance.now() - t0);
      return { jobId, t0 };
    }),
  );
  await until(() => sent.every((s) => ended.has(s.jobId)));
  for (const s of sent) activeMs.push((started.get(s.jobId) ?? Number.NaN) - s.t0);
}

async function handOverRound(queue: SyncQueue, round: number, handOverMs: number[]) {
  const lines = await Promise.all(
    Array.from({ length: 10 }, async (_, app) => {
      const ids: string[] = [];
      for (let k = 0; k < 5; k++) ids.push((await queue.enqueueSync(request(`line-${round}-${app}`))).jobId);
      return ids;
    }),
  );
  await until(() => lines.flat().every((id) => ended.has(id)));
  for (const ids of lines)
    for (let k = 1; k < ids.length; k++) handOverMs.push(started.get(ids[k]!)! - ended.get(ids[k - 1]!)!);
}

async function main() {
  const prefix = `bench-${randomUUID()}`;
  const queue = createSyncQueue({ connection: { url: REDIS_URL }, prefix });
  const worker = createSyncWorker({
    connection: { url: REDIS_URL },
    prefix,
    runner,
    reporterFactory: () => ({ report: async () => {}, close: async () => {} }),
    concurrency: CONCURRENT,
  });
  await worker.waitUntilReady();
  const enqueueMs: number[] = [];
  const activeMs: number[] = [];
  const handOverMs: number[] = [];
  await toActiveRound(queue, -1, [], []); // warm-up: connections, script cache
  for (let round = 0; round < ROUNDS; round++) await toActiveRound(queue, round, enqueueMs, activeMs);
  for (let round = 0; round < ROUNDS; round++) await handOverRound(queue, round, handOverMs);
  await worker.close({ graceMs: 5000 });
  await queue.close();
  const redis = new Redis(REDIS_URL);
  await deleteKeys(redis, prefix);
  redis.disconnect();
  const rows = [
    ['enqueueSync round trip (50 at once)', enqueueMs],
    ['enqueue → active (50 concurrent, 50 apps)', activeMs],
    ["hand-over in one app's line (end → next start)", handOverMs],
  ] as const;
  const table = rows.map(
    ([name, v]) =>
      `| ${name} | ${v.length} | ${percentile(v, 50).toFixed(1)} | ${percentile(v, 99).toFixed(1)} |`,
  );
  for (const line of table) console.log(line);
  await writeSection(table, percentile(activeMs, 99));
}

async function writeSection(table: string[], p99: number) {
  const file = path.join(import.meta.dirname, '..', 'BENCHMARKS.md');
  const section = [
    '## Queue',
    '',
    `\`npm run bench:queue\` (bench/queue-latency.bench.ts), ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} CPUs shared with other work, local Redis; one worker process, concurrency ${CONCURRENT}, each sync takes ${RUN_MS} ms, ${ROUNDS} rounds.`,
    '',
    '| measure | samples | p50 ms | p99 ms |',
    '|---|---|---|---|',
    ...table,
    '',
    `Target enqueue → active p99 ≤ 250 ms: ${p99 <= 250 ? 'met' : 'NOT met'}.`,
    '',
  ].join('\n');
  const current = await readFile(file, 'utf8').catch(() => '# Benchmarks\n');
  const start = current.indexOf('## Queue');
  const end = start < 0 ? -1 : current.indexOf('\n## ', start + 1);
  const next =
    start < 0
      ? `${current.trimEnd()}\n\n${section}`
      : current.slice(0, start) + section + (end < 0 ? '' : current.slice(end + 1));
  await writeFile(file, next);
}

await main();
