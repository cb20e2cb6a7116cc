/**
 * Shared set-up for queue integration tests: the real Redis from REDIS_URL, a unique prefix per test, and
 * cleanup of every key under that prefix (never FLUSHALL: the Redis is shared).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { SyncOperation } from '../../../src/domain/index.js';
import type { JobStatus, SyncQueueClient } from '../../../src/queue/sync-queue-client.js';
import type { DeletionJob, QueuedDeletion, SyncJob } from '../../../src/queue/sync-request.js';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export function uniquePrefix(): string {
  return `test-${randomUUID()}`;
}

/** Delete every key starting with `<prefix>:` (SCAN, never KEYS/FLUSHALL). */
export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (found.length > 0) await redis.del(...found);
  } while (cursor !== '0');
}

export function testRedis(url = REDIS_URL): Redis {
  return new Redis(url, { maxRetriesPerRequest: null });
}

let counter = 0;
/** A valid request; `requestKey` unique unless given. */
export function syncRequest(
  application: string,
  overrides: Partial<SyncJob> & { syncOptions?: string[] } = {},
): SyncJob {
  const { syncOptions = [], ...rest } = overrides;
  const operation: SyncOperation = { prune: false, dryRun: false, syncOptions };
  counter += 1;
  return {
    application,
    operation,
    initiator: { userId: 'U0001', userName: 'alice' },
    target: { channel: 'C0001', threadTs: `1700000000.${String(counter).padStart(6, '0')}` },
    requestKey: `req-${randomUUID()}`,
    ...rest,
  };
}

/** A valid deletion job of `application`, as syncRequest makes a sync's. */
export function deletionRequest(application: string, deletion: QueuedDeletion): DeletionJob {
  const { initiator, target, requestKey } = syncRequest(application);
  return { application, initiator, target, requestKey, deletion };
}

/** Poll `check` every 25 ms until it returns a truthy value; rejects after `timeoutMs`. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Wait until every job is completed, failed or cancelled; resolves with their statuses in order. */
export function jobsFinished(
  queue: SyncQueueClient,
  jobIds: readonly string[],
  timeoutMs = 30_000,
): Promise<(JobStatus | undefined)[]> {
  return waitFor(
    async () => {
      const states = await Promise.all(jobIds.map((id) => queue.jobStatus(id)));
      return states.every((s) => s && ['completed', 'failed', 'cancelled'].includes(s.state)) && states;
    },
    timeoutMs,
    'jobs to finish',
  );
}
