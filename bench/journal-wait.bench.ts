/**
 * What acknowledging only durable commands costs on Redis Sentinel: the command journal's `record` (written before
 * Slack hears "Got it") without WAIT and with WAIT for one replica, on real loopback processes (a master, two
 * replicas, three sentinels from test/support/redis-topologies.ts), `SAMPLES` sequential records each, plus the
 * time Sentinel takes to promote a replica after the master is SIGKILLed (down-after-milliseconds 1000), over
 * `KILLS` fresh sets, and until a command can be acknowledged again (its journal record, WAIT 1, succeeds).
 * Prints a Markdown table for BENCHMARKS.md "Redis Sentinel". Run: `npx tsx bench/journal-wait.bench.ts`.
 */
import os from 'node:os';
import { loadConfig } from '../src/config.js';
import { createSyncQueue } from '../src/queue/sync-queue.js';
import { startSentinelSet } from '../test/support/redis-topologies.js';
import { percentile } from './support/percentile.js';

const SAMPLES = 500;
const KILLS = 3;

async function recordLatencies(waitReplicas: number): Promise<number[]> {
  const set = await startSentinelSet({ replicas: 2 });
  const queue = createSyncQueue({ connection: loadConfig(set.env).redis, prefix: 'bench', waitReplicas });
  try {
    await queue.commands.record('warm-up', {}, 30_000);
    const out: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const t = performance.now();
      await queue.commands.record(`cmd-${i}`, { application: 'web', i }, 30_000);
      out.push(performance.now() - t);
    }
    return out;
  } finally {
    await queue.close();
    await set.stop();
  }
}

/** Per kill: ms until a sentinel names the promoted replica, and until a journal record (WAIT 1) succeeds again. */
async function failovers(): Promise<{ promoted: number[]; writable: number[] }> {
  const promoted: number[] = [];
  const writable: number[] = [];
  for (let i = 0; i < KILLS; i++) {
    const set = await startSentinelSet({ replicas: 2, downAfterMs: 1000 });
    const queue = createSyncQueue({ connection: loadConfig(set.env).redis, prefix: 'bench' });
    try {
      // Sentinels need a moment to discover the replicas and each other before they can fail over.
      await new Promise((r) => setTimeout(r, 3000));
      await queue.commands.record('before', {}, 30_000);
      const killedAt = performance.now();
      const [promotedMs] = await Promise.all([
        set.killMaster(),
        (async () => {
          for (let n = 0; ; n++) {
            const ok = await queue.commands.record(`after-${n}`, {}, 30_000).then(
              () => true,
              () => false,
            );
            if (ok) return writable.push(performance.now() - killedAt);
            await new Promise((r) => setTimeout(r, 50));
          }
        })(),
      ]);
      promoted.push(promotedMs);
    } finally {
      await queue.close();
      await set.stop();
    }
  }
  return { promoted, writable };
}

const row = (name: string, v: number[]) =>
  `| ${name} | ${v.length} | ${percentile(v, 50).toFixed(2)} | ${percentile(v, 99).toFixed(2)} |`;
const plain = await recordLatencies(0);
const waited = await recordLatencies(1);
const { promoted, writable } = await failovers();
console.log(
  [
    `Node ${process.version}, ${os.cpus().length} CPUs shared with other work, loopback redis-server; ${SAMPLES} sequential records.`,
    '',
    '| measure | samples | p50 ms | p99 ms |',
    '| --- | --- | --- | --- |',
    row('journal record, no WAIT', plain),
    row('journal record + WAIT 1 replica', waited),
    row('SIGKILL master → replica promoted (down-after 1000 ms)', promoted),
    row('SIGKILL master → /sync acknowledged again (record + WAIT 1)', writable),
  ].join('\n'),
);
