/**
 * Acknowledge only what is durable, on Sentinel: the command journal's entry (written before Slack hears "Got it")
 * must be on a replica too (Redis WAIT), or a master dying right after the ack would take the command with it.
 * Real master, replica and sentinels (test/support/redis-topologies.ts); the queue connects through the sentinels.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { createSyncQueue, type SyncQueue } from '../../../src/queue/index.js';
import { redisServerMissing, type SentinelSet, startSentinelSet } from '../../support/redis-topologies.js';

describe.skipIf(redisServerMissing())('command journal on Sentinel', () => {
  let set: SentinelSet;
  let queue: SyncQueue;
  beforeAll(async () => {
    set = await startSentinelSet({ replicas: 1, downAfterMs: 60_000 });
    const config = loadConfig(set.env);
    queue = createSyncQueue({ connection: config.redis, prefix: 'journal-wait', timeoutMs: 1000 });
  }, 30_000);
  afterAll(async () => {
    try {
      await queue?.close();
    } finally {
      await set?.stop();
    }
  });

  it('when a replica confirms the entry, then record resolves; when no replica is left, then record throws and the command is not acknowledged', async () => {
    await queue.commands.record('cmd-1', { application: 'web' }, 30_000);
    await set.killReplicas();

    const refused = await queue.commands
      .record('cmd-2', { application: 'web' }, 30_000)
      .catch((err: Error) => err);

    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(
      /only 0 of 1 Redis replicas confirmed the request within 500 ms/,
    );
  });
});
