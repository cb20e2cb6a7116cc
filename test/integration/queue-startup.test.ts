import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createSyncQueue } from '../../src/queue/sync-queue.js';
import { deleteKeys, REDIS_URL, syncRequest, testRedis, uniquePrefix } from './support/queue-test-env.js';

const redis = testRedis();
const prefix = uniquePrefix();
afterAll(async () => {
  await deleteKeys(redis, prefix);
  await redis.quit();
});

describe('a queue client used the instant it is created (the producer does not queue commands while connecting)', () => {
  it('answers every read and an enqueue with a caller-chosen job id instead of "Stream isn\'t writeable"', async () => {
    const by = { userId: 'U1', userName: 'pat' };
    const reads = [
      (q: ReturnType<typeof createSyncQueue>) => q.history('web'),
      (q: ReturnType<typeof createSyncQueue>) => q.applicationStatus('web'),
      (q: ReturnType<typeof createSyncQueue>) => q.allStatus(),
      (q: ReturnType<typeof createSyncQueue>) => q.jobStatus('no-such-job'),
      (q: ReturnType<typeof createSyncQueue>) => q.cancel('web', by),
      (q: ReturnType<typeof createSyncQueue>) => q.pruneConfirmedAt('web'),
    ];
    for (const read of reads) {
      const queue = createSyncQueue({ connection: { url: REDIS_URL }, prefix });
      try {
        await expect(read(queue)).resolves.not.toThrow();
      } finally {
        await queue.close();
      }
    }
    const queue = createSyncQueue({ connection: { url: REDIS_URL }, prefix });
    try {
      const jobId = randomUUID();
      expect(await queue.enqueueSync(syncRequest('web'), { jobId })).toMatchObject({
        jobId,
        duplicate: false,
      });
    } finally {
      await queue.close();
    }
  });
});
