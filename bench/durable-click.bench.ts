/**
 * What a durable click costs on Redis Sentinel: the bot's barrier (`replicatedWrites`, WAIT 1 on each of its three
 * writing connections — queue producer, approval store, drift claims) after one connection wrote a decision (an
 * HSET, as the approval store's compare-and-set does), against the same write unconfirmed. Real loopback processes
 * (a master, two replicas, three sentinels from test/support/redis-topologies.ts), `SAMPLES` sequential clicks each.
 * Prints a Markdown table for BENCHMARKS.md "Redis Sentinel". Run: `npx tsx bench/durable-click.bench.ts`.
 */
import os from 'node:os';
import { loadConfig } from '../src/config.js';
import { REPLICA_WAIT_MS, replicaDurabilityFor, replicatedWrites } from '../src/queue/index.js';
import { closeConnection, createRedisClient } from '../src/queue/store/redis-connections.js';
import { startSentinelSet } from '../test/support/redis-topologies.js';
import { percentile } from './support/percentile.js';

const SAMPLES = 500;

async function main(): Promise<void> {
  const set = await startSentinelSet({ replicas: 2, downAfterMs: 60_000 });
  const options = loadConfig(set.env).redis;
  const connections = [0, 1, 2].map(() => createRedisClient(options, { maxRetriesPerRequest: 1 }));
  const durable = replicatedWrites(connections, replicaDurabilityFor(options, REPLICA_WAIT_MS));
  const [writer] = connections;
  try {
    await Promise.all(connections.map((c) => c.ping()));
    const run = async (confirm: boolean) => {
      const out: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const t = performance.now();
        await writer!.hset(`bench:click:${i % 20}`, 'status', 'approved', 'at', String(i));
        if (confirm) await durable.confirm();
        out.push(performance.now() - t);
      }
      return out;
    };
    await run(true); // warm-up
    const rows = [
      ['decision written, not confirmed', await run(false)],
      ['decision written + WAIT 1 on 3 connections', await run(true)],
    ] as const;
    console.log(`Node ${process.version}, ${os.cpus().length} CPUs, ${SAMPLES} clicks each, loopback\n`);
    console.log('| click | p50 ms | p99 ms |\n| --- | --- | --- |');
    for (const [name, ms] of rows)
      console.log(`| ${name} | ${percentile(ms, 50).toFixed(2)} | ${percentile(ms, 99).toFixed(2)} |`);
  } finally {
    await Promise.all(connections.map(closeConnection));
    await set.stop();
  }
}

await main();
