/**
 * Route cancel requests from any process to the worker that runs the job: a pub/sub message for speed, and
 * a poll of the cancel flags (every `pollMs`) for messages missed while the subscriber was reconnecting.
 * BullMQ's own `worker.cancelJob` only reaches jobs of the same Worker instance, hence this.
 */
import type { QueueLogger, RedisClient } from '../store/redis-connections.js';
import type { SyncKeys } from '../store/redis-keys.js';
import type { RunningJobs } from './running-jobs.js';

export interface CancelListener {
  close(): Promise<void>;
}

/** Start listening. `subscriber` becomes a subscriber-mode connection owned by the listener. */
export function listenForCancels(
  redis: RedisClient,
  subscriber: RedisClient,
  keys: SyncKeys,
  running: RunningJobs,
  logger: QueueLogger,
  pollMs = 1000,
): CancelListener {
  const cancel = (jobId: string) => {
    const controller = running.get(jobId)?.controller;
    if (!controller || controller.signal.aborted) return;
    logger.info({ jobId }, 'cancel requested; terminating the operation');
    controller.abort('cancelled');
  };
  subscriber.on('message', (_channel: string, jobId: string) => cancel(jobId));
  subscriber
    .subscribe(keys.cancelChannel)
    .catch((err: unknown) => logger.warn({ err: String(err) }, 'cancel subscribe failed'));
  const timer = setInterval(() => {
    const ids = [...running.keys()];
    if (ids.length === 0 || redis.status !== 'ready') return;
    redis
      .mget(ids.map((id) => keys.cancel(id)))
      .then((flags) => {
        for (const [i, flag] of flags.entries()) if (flag !== null) cancel(ids[i] ?? '');
      })
      .catch((err: unknown) => logger.debug({ err: String(err) }, 'cancel poll failed'));
  }, pollMs);
  timer.unref();
  return {
    async close() {
      clearInterval(timer);
      subscriber.disconnect();
    },
  };
}
