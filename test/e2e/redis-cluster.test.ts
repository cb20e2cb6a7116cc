/**
 * `wavesync demo` on a local Redis Cluster: three masters on loopback ports joined by `redis-cli --cluster create`,
 * wavesync pointed at them by REDIS_CLUSTER_NODES only. Every multi-key Lua script (BullMQ's and ours) must find
 * its keys in one hash slot, which the `{hash tag}` wavesync puts in the prefix guarantees; the demo scenario
 * must pass as on one Redis, and leave no key behind.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { type LocalCluster, redisServerMissing, startLocalCluster } from '../support/redis-topologies.js';
import { runDemoProcess } from './support/demo-process.js';

describe.skipIf(redisServerMissing())('test/e2e/redis-cluster', () => {
  let cluster: LocalCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  });

  it('when wavesync demo runs with REDIS_CLUSTER_NODES on a 3-master cluster, then every app ends as expected and no key is left', async () => {
    cluster = await startLocalCluster(3);

    const { code, out } = await runDemoProcess([], cluster.env);

    expect(out).toMatch(
      /Redis Cluster (127\.0\.0\.1:\d+,?){3}\s+\(key\s+prefix \{wavesync-demo-[0-9a-f]{8}\}/,
    );
    expect(out).toMatch(/demo passed: (\d+) of \1 as expected/);
    expect(code).toBe(0);
    const left = await Promise.all(
      cluster.ports.map(async (port) => {
        const node = new Redis(port, '127.0.0.1');
        try {
          return await node.dbsize();
        } finally {
          node.disconnect();
        }
      }),
    );
    expect(left).toEqual([0, 0, 0]);
  }, 300_000);
});
