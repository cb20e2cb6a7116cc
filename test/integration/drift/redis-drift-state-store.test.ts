import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import type { ResourceDifference } from '../../../src/drift/compare-application.js';
import { observeDrift } from '../../../src/drift/drift-episodes.js';
import {
  redisDriftNoticeClaims,
  redisDriftNoticeRefs,
  redisDriftStateStore,
} from '../../../src/drift/redis-drift-state-store.js';
import {
  clusterSafePrefix,
  createRedisClient,
  type RedisClient,
  type RedisConnectionOptions,
} from '../../../src/queue/store/redis-connections.js';
import { type LocalCluster, redisServerMissing, startLocalCluster } from '../../support/redis-topologies.js';
import { deleteKeys, testRedis, uniquePrefix } from '../support/queue-test-env.js';

const drift: ResourceDifference[] = [
  {
    key: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' },
    reason: 'changed',
    path: 'spec.replicas',
  },
];

/**
 * The drift state, notice refs, lease and Sync-button claims — and their Lua script — as each topology runs them:
 * the shared single Redis, and a real 3-master Redis Cluster (keys under a `{braced}` prefix, as `loadConfig`
 * gives on Cluster, so every key of an installation lives in one slot).
 */
function driftStateContract(topology: () => { connect(): RedisClient; redis: RedisClient; prefix: string }) {
  it('when eight stores on their own connections start the same episode at once, then exactly one gets the notify action', async () => {
    const connections = Array.from({ length: 8 }, () => topology().connect());
    const stores = connections.map((c) => redisDriftStateStore(c, topology().prefix));
    const now = new Date();

    const actions = await Promise.all(
      stores.map((s) =>
        s.transition('shop', (previous) => observeDrift(previous, drift, { selfHeal: false }, now)),
      ),
    );
    const resolved = await Promise.all(
      stores.map((s) =>
        s.transition('shop', (previous) => observeDrift(previous, [], { selfHeal: false }, now)),
      ),
    );
    const stored = await stores[0]!.get('shop');
    await Promise.all(connections.map((c) => c.quit()));

    expect(actions.map((a) => a.action).sort()).toEqual([
      'none',
      'none',
      'none',
      'none',
      'none',
      'none',
      'none',
      'notify',
    ]);
    expect(resolved.filter((a) => a.action === 'resolved')).toHaveLength(1);
    expect(stored).toEqual({ selfHealAttempts: 0 });
  });

  it('when a notice is taken, then it is gone for every other taker', async () => {
    const refs = redisDriftNoticeRefs(topology().redis, topology().prefix);
    await refs.save('shop', { channel: 'C0SHOP', ts: '1.000001', differences: drift });

    const taken = await Promise.all([refs.take('shop'), refs.take('shop')]);

    expect(taken.filter(Boolean)).toEqual([{ channel: 'C0SHOP', ts: '1.000001', differences: drift }]);
  });

  it('when five people click one notice at once on their own connections, then one claims it and the others learn who; a released claim is free again', async () => {
    const connections = Array.from({ length: 5 }, () => topology().connect());
    const claims = connections.map((c) => redisDriftNoticeClaims(c, topology().prefix));
    const users = claims.map((_, i) => ({ userId: `U0${i}`, userName: `user${i}` }));

    const answers = await Promise.all(claims.map((c, i) => c.claim('notice-1', users[i]!)));
    const winner = users[answers.indexOf(undefined)];
    const other = await claims[0]!.claim('notice-2', users[0]!);
    await claims[1]!.release('notice-1');
    const after = await claims[2]!.claim('notice-1', users[2]!);
    await Promise.all(connections.map((c) => c.quit()));

    expect(answers.filter((a) => a === undefined)).toHaveLength(1);
    expect(answers.filter(Boolean)).toEqual(Array(4).fill(winner));
    expect(other).toBeUndefined();
    expect(after).toBeUndefined();
  });
}

describe('test/integration/drift/redis-drift-state-store (single Redis)', () => {
  const redis = testRedis();
  const prefix = uniquePrefix();
  afterEach(() => deleteKeys(redis, prefix));
  afterAll(() => redis.quit());
  driftStateContract(() => ({ connect: () => testRedis(), redis, prefix }));
});

describe.skipIf(redisServerMissing())(
  'test/integration/drift/redis-drift-state-store (3-master Redis Cluster)',
  () => {
    let cluster: LocalCluster | undefined;
    let options: RedisConnectionOptions;
    let redis: RedisClient;
    let prefix: string;
    const connect = () => createRedisClient(options, { maxRetriesPerRequest: 2 });
    beforeAll(async () => {
      cluster = await startLocalCluster(3);
      options = loadConfig(cluster.env).redis;
      prefix = clusterSafePrefix(uniquePrefix(), options);
      redis = connect();
    }, 60_000);
    afterEach(async () => {
      // Every key of the run in one slot, so one node holds them all (and deleting them is one node's SCAN).
      const slots = new Set<number>();
      for (const port of cluster?.ports ?? []) {
        const node = createRedisClient({ port, host: '127.0.0.1' });
        const keys = await node.keys(`${prefix}*`);
        for (const key of keys) slots.add(Number(await node.call('CLUSTER', 'KEYSLOT', key)));
        if (keys.length) await deleteKeys(node as Redis, prefix);
        node.disconnect();
      }
      expect(slots.size).toBeLessThanOrEqual(1);
    });
    afterAll(async () => {
      try {
        redis?.disconnect();
      } finally {
        await cluster?.stop();
      }
    });
    driftStateContract(() => ({ connect, redis, prefix }));
  },
);
