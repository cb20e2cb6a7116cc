/**
 * A SyncReporter for queue tests that appends a compact line per event to a Redis list per job, so event
 * order is checkable across processes: `<type>[:<wave index>][:resumed]@<pid>`.
 */
import type { Redis } from 'ioredis';
import type { SyncEvent } from '../../../src/domain/index.js';
import type { SyncReporter } from '../../../src/queue/sync-reporter.js';

function eventLine(event: SyncEvent): string {
  const wave = 'wave' in event ? `:${event.wave.index}` : '';
  const resumed = event.type === 'OperationStarted' && event.resumed ? ':resumed' : '';
  return `${event.type}${wave}${resumed}`;
}

export function recordingReporterFactory(redis: Redis, base: string) {
  return ({ jobId }: { jobId: string }): SyncReporter => ({
    async report(event) {
      await redis.rpush(`${base}:reported:${jobId}`, `${eventLine(event)}@${process.pid}`);
    },
    async close() {},
  });
}

/** Reported events of a job without the pid suffix. */
export async function readReported(redis: Redis, base: string, jobId: string): Promise<string[]> {
  const rows = await redis.lrange(`${base}:reported:${jobId}`, 0, -1);
  return rows.map((r) => r.replace(/@\d+$/, ''));
}
