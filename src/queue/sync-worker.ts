/**
 * createSyncWorker — a BullMQ Worker that runs sync jobs one per application (docs/queue.md), resumes
 * stalled jobs from their persisted OperationState, takes cancels from any process, and shuts down gracefully.
 */
import { Queue, Worker } from 'bullmq';
import { finishAbandoned } from './finish-abandoned.js';
import type { JobLifecycle } from './job-lifecycle.js';
import { createAppLine } from './line/app-line.js';
import { listenForCancels } from './line/cancel-listener.js';
import type { RunningJobs } from './line/running-jobs.js';
import { lockRenewTimeFor } from './lock-renewal.js';
import type { ResumedFrom } from './resumed-from.js';
import {
  closeConnection,
  type QueueLogger,
  type RedisConnectionOptions,
  silentLogger,
  workerConnection,
} from './store/redis-connections.js';
import { DEFAULT_PREFIX, SYNC_QUEUE_NAME, syncKeys } from './store/redis-keys.js';
import { createSyncProcessor } from './sync-processor.js';
import type { SyncJobData } from './sync-queue.js';
import type { SyncReporter } from './sync-reporter.js';
import type { SyncRequest } from './sync-request.js';
import type { SyncRunner } from './sync-runner.js';

export interface SyncWorkerOptions {
  connection: RedisConnectionOptions;
  prefix?: string;
  queueName?: string;
  runner: SyncRunner;
  /**
   * One reporter per delivery of a job; `retry` is set on a delivery after a transient error, `resumedFrom` on one
   * that takes over an earlier delivery's turn — from this worker (its lock lapsed) or another (sync-processor.ts).
   */
  reporterFactory: (job: {
    jobId: string;
    request: SyncRequest;
    retry?: { attempt: number; attempts: number; reason: string };
    /** An earlier delivery held the job's turn: on this same worker, or another (resumed-from.ts). */
    resumedFrom?: ResumedFrom;
  }) => SyncReporter;
  /** Syncs of different applications this process runs at once (default 4). */
  concurrency?: number;
  /**
   * BullMQ job lock (ms, default 30 000); a dead worker's job is resumed elsewhere after about this long. A live
   * worker renews it every tenth of it (lock-renewal.ts), so a pause of up to ~90 % of it does not lose the job.
   */
  lockDurationMs?: number;
  /** How often stalled jobs are looked for (ms, default 15 000). */
  stalledIntervalMs?: number;
  /** A job waiting its turn re-checks the line at least this often (ms, default 10 000). */
  recheckMs?: number;
  /** Cancel flags are polled this often, besides pub/sub (ms, default 1000). */
  cancelPollMs?: number;
  /** History entries kept per application (default 50). */
  historyLimit?: number;
  /** An application's own history limit (`spec.revisionHistoryLimit`), when it has one; at least 1 is kept. */
  historyLimitOf?: (application: string) => number | undefined;
  logger?: QueueLogger;
  /** Hooks around each job's operation (src/queue/job-lifecycle.ts). */
  lifecycle?: JobLifecycle;
}

export interface SyncWorker {
  /** Resolves once the worker is connected and taking jobs. */
  waitUntilReady(): Promise<void>;
  /** Ids of the jobs this worker is running now. */
  runningJobIds(): string[];
  /**
   * Stop taking jobs; running operations stop at their next `persist` (state saved) and go back to the
   * queue for another worker. After `graceMs` (default 25 000) the rest is abandoned to stall recovery.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** Create and start a worker. */
export function createSyncWorker(options: SyncWorkerOptions): SyncWorker {
  const logger = options.logger ?? silentLogger;
  const redis = workerConnection(options.connection, logger);
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const queueName = options.queueName ?? SYNC_QUEUE_NAME;
  const keys = syncKeys(prefix, queueName);
  const line = createAppLine(redis, keys, {
    default: options.historyLimit ?? 50,
    of: (application) => options.historyLimitOf?.(application),
  });
  const queue = new Queue<SyncJobData>(queueName, { connection: redis, prefix });
  const running: RunningJobs = new Map();
  let shuttingDown = false;
  const processor = createSyncProcessor({
    queue,
    redis,
    keys,
    line,
    runner: options.runner,
    reporterFactory: options.reporterFactory,
    running,
    isShuttingDown: () => shuttingDown,
    recheckMs: options.recheckMs ?? 10_000,
    logger,
    ...(options.lifecycle ? { lifecycle: options.lifecycle } : {}),
  });
  const lockDuration = options.lockDurationMs ?? 30_000;
  const worker = new Worker<SyncJobData>(queueName, processor, {
    connection: redis,
    prefix,
    concurrency: options.concurrency ?? 4,
    lockDuration,
    lockRenewTime: lockRenewTimeFor(lockDuration),
    stalledInterval: options.stalledIntervalMs ?? Math.min(15_000, lockDuration),
    maxStalledCount: 5,
  });
  worker.on('error', (err) => logger.warn({ err: err.message }, 'worker error'));
  // Safety net for failures outside the runner (e.g. Redis errors while taking a turn, retried until
  // attempts ran out): the job must not stay at the head of its line.
  // A job ended here is announced in its thread and alerts channel (finishAbandoned with the reporter factory).
  // Stalled beyond maxStalledCount, BullMQ fails the job whatever its attempts: that is final too.
  worker.on('failed', (job, err) => {
    if (!job?.id) return;
    const stalled = /stalled more than allowable limit/.test(err.message);
    if (!stalled && job.attemptsMade < (job.opts.attempts ?? 1)) return;
    const message = stalled
      ? 'Operation ended without result: its worker stopped responding too many times (stalled)'
      : `Operation ended without result: ${err.message}`;
    const deps = { queue, line, reporterFactory: options.reporterFactory };
    finishAbandoned(deps, job.data.request.application, job.id, message).catch((e: unknown) =>
      logger.warn({ jobId: job.id, err: String(e) }, 'could not record a failed job'),
    );
  });
  worker.on('lockRenewalFailed', (jobIds: string[]) => {
    // Not an abort: the engine treats its signal as "terminate". The run stops at its next persist instead.
    for (const id of jobIds) {
      const job = running.get(id);
      if (job) job.lockLost = true;
    }
    logger.warn({ jobIds }, 'job lock lost; the operation stops at its next step and resumes elsewhere');
  });
  const cancels = listenForCancels(
    redis,
    workerConnection(options.connection, logger, 'cancel-subscriber'),
    keys,
    running,
    logger,
    options.cancelPollMs,
  );

  return {
    async waitUntilReady() {
      await worker.waitUntilReady();
    },
    runningJobIds: () => [...running.keys()],
    async close({ graceMs = 25_000 } = {}) {
      if (shuttingDown) return;
      shuttingDown = true;
      const force = setTimeout(() => {
        logger.warn(
          { running: [...running.keys()] },
          'shutdown grace period over; leaving jobs to stall recovery',
        );
        worker.close(true).catch(() => undefined);
      }, graceMs);
      try {
        await worker.close();
      } finally {
        clearTimeout(force);
        await cancels.close();
        await queue.close().catch(() => undefined);
        await closeConnection(redis);
      }
    },
  };
}
