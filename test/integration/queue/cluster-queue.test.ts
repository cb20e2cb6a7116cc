/**
 * The queue on Redis Cluster beyond the demo's happy path: one application's line (our Lua scripts: take-turn,
 * promote-head) serializes two syncs, and a cancel of the running one reaches its worker over pub/sub (which a
 * Cluster carries between nodes). Three real masters (`redis-cli --cluster create`), connected through
 * REDIS_CLUSTER_NODES so the prefix gets its hash tag as in production; the recording runner writes to the shared
 * Redis under a unique prefix.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { createSyncQueue, type SyncQueue } from '../../../src/queue/sync-queue.js';
import { createSyncWorker, type SyncWorker } from '../../../src/queue/sync-worker.js';
import { type LocalCluster, redisServerMissing, startLocalCluster } from '../../support/redis-topologies.js';
import { deleteKeys, syncRequest, testRedis, uniquePrefix, waitFor } from '../support/queue-test-env.js';
import { readReported, recordingReporterFactory } from '../support/recording-reporter.js';
import { createRecordingRunner, readRuns } from '../support/recording-runner.js';

describe.skipIf(redisServerMissing())('sync queue on Redis Cluster', () => {
  let cluster: LocalCluster;
  let record: Redis;
  let queue: SyncQueue;
  let worker: SyncWorker;
  const base = uniquePrefix();

  beforeAll(async () => {
    cluster = await startLocalCluster(3);
    record = testRedis();
    const config = loadConfig({ ...cluster.env, WAVESYNC_QUEUE_PREFIX: 'cluster-test' });
    expect(config.queue.prefix).toBe('{cluster-test}');
    queue = createSyncQueue({ connection: config.redis, prefix: config.queue.prefix });
    worker = createSyncWorker({
      connection: config.redis,
      prefix: config.queue.prefix,
      runner: createRecordingRunner({ redis: record, base, steps: 6, stepMs: 300 }),
      reporterFactory: recordingReporterFactory(record, base),
    });
  }, 60_000);

  afterAll(async () => {
    try {
      await worker?.close({ graceMs: 2000 });
      await queue?.close();
    } finally {
      await cluster?.stop();
      if (record) {
        await deleteKeys(record, base);
        record.disconnect();
      }
    }
  });

  it('when two syncs of one app are queued and the running one is cancelled, then they run one after the other and the cancel reaches the worker', async () => {
    const first = await queue.enqueueSync(syncRequest('web'));
    const second = await queue.enqueueSync(syncRequest('web'));
    await waitFor(
      async () => (await readReported(record, base, first.jobId)).includes('HookStarted:1'),
      20_000,
      'first job running',
    );
    const cancelled = await queue.cancel('web', { userId: 'U0PAT', userName: 'pat' });
    const states = await waitFor(
      async () => {
        const s = await Promise.all([queue.jobStatus(first.jobId), queue.jobStatus(second.jobId)]);
        return s.every((x) => x?.state === 'completed' || x?.state === 'cancelled') && s;
      },
      30_000,
      'both jobs to end',
    );
    const runs = await readRuns(record, base);

    expect(second.position).toBe(1);
    expect(cancelled).toEqual({ cancelled: 'running', jobId: first.jobId });
    // Argo CD ends a terminated operation Failed, "Operation terminated".
    expect(states.map((s) => [s?.operationState?.phase, s?.operationState?.message])).toEqual([
      ['Failed', 'Operation terminated'],
      ['Succeeded', 'successfully synced (all tasks run)'],
    ]);
    // The second started only after the first finished.
    const firstEnd = runs.find((r) => r.jobId === first.jobId && r.kind === 'finish');
    const secondStart = runs.find((r) => r.jobId === second.jobId && r.kind === 'start');
    expect(firstEnd && secondStart && firstEnd.seq < secondStart.seq).toBe(true);
  }, 90_000);
});
