/**
 * Wrap the job's reporter so the job's record in Redis follows its SyncEvents (the current wave; who cancelled a
 * terminated operation) before each is delivered, in order. Delivery problems of the inner reporter are logged,
 * never allowed to stop the sync. The events themselves are not written to Redis: a stream of every event whole
 * (OperationStarted and each wave carry all their steps: ~5 MB of JSON at 20,000 objects, one piece of the event
 * loop each) had no reader.
 */

import type { CancelledBy, SyncEvent } from '../domain/index.js';
import type { AppLine } from './line/app-line.js';
import { LockLostError } from './queue-errors.js';
import type { QueueLogger, RedisClient } from './store/redis-connections.js';
import type { SyncKeys } from './store/redis-keys.js';
import type { SyncReporter } from './sync-reporter.js';

export interface MirrorTarget {
  redis: RedisClient;
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
    async report(given: SyncEvent) {
      const event =
        given.type === 'OperationCompleted' ? await withCancelledBy(redis, keys, jobId, given) : given;
      if (event.type === 'WaveStarted') {
        const owned = await line.update(jobId, owner, { wave: JSON.stringify(event.wave) });
        if (!owned) throw new LockLostError(jobId);
      }
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

/**
 * A terminated operation whose job carries a cancel request (`/sync cancel`, the Cancel button: the requester's
 * `Initiator` and reason, written by the CANCEL script) says who cancelled it.
 */
async function withCancelledBy(
  redis: RedisClient,
  keys: SyncKeys,
  jobId: string,
  event: Extract<SyncEvent, { type: 'OperationCompleted' }>,
): Promise<SyncEvent> {
  if (event.phase === 'Succeeded' || event.cancelledBy) return event;
  const raw = await redis.get(keys.cancel(jobId));
  if (!raw) return event;
  try {
    const by = JSON.parse(raw) as { userId?: unknown; userName?: unknown; reason?: unknown };
    if (typeof by.userId !== 'string') return event;
    const cancelledBy: CancelledBy = {
      userId: by.userId,
      userName: typeof by.userName === 'string' ? by.userName : by.userId,
      ...(typeof by.reason === 'string' && by.reason ? { reason: by.reason } : {}),
    };
    return { ...event, cancelledBy };
  } catch {
    return event;
  }
}
