/**
 * Wrap the job's reporter so every SyncEvent is first recorded in Redis (current wave, event stream for
 * `followJob`) and then delivered, in order. Delivery problems of the inner reporter are logged, never
 * allowed to stop the sync.
 */
import type { Redis } from 'ioredis';
import type { SyncEvent } from '../domain/index.js';
import type { SyncReporter } from '../reporting/sync-reporter.js';
import type { AppLine } from './app-line.js';
import { LockLostError } from './queue-errors.js';
import type { QueueLogger } from './redis-connections.js';
import type { SyncKeys } from './redis-keys.js';

export interface MirrorTarget {
  redis: Redis;
  keys: SyncKeys;
  line: AppLine;
  jobId: string;
  owner: string;
  logger: QueueLogger;
}

/** A reporter that records, then forwards to `inner`. Throws LockLostError when the job changed owner. */
export function mirrorReporter(inner: SyncReporter, target: MirrorTarget): SyncReporter {
  const { redis, keys, line, jobId, owner, logger } = target;
  return {
    async report(event: SyncEvent) {
      if (event.type === 'WaveStarted') {
        const owned = await line.update(jobId, owner, { wave: JSON.stringify(event.wave) });
        if (!owned) throw new LockLostError(jobId);
      }
      await redis.xadd(keys.events(jobId), 'MAXLEN', '~', 5000, '*', 'event', JSON.stringify(event));
      try {
        await inner.report(event);
      } catch (err) {
        logger.warn({ jobId, event: event.type, err: String(err) }, 'reporter failed to deliver an event');
      }
    },
    async close() {
      try {
        await inner.close();
      } catch (err) {
        logger.warn({ jobId, err: String(err) }, 'reporter failed to close');
      }
    },
  };
}
