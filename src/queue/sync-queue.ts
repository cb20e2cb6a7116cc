/**
 * createSyncQueue — the producer side: enqueue, status, cancel and history over BullMQ and the per-application
 * line (docs/queue.md). Uses one fail-fast Redis connection, so `/sync` can say "not queued" at once.
 */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { BotError } from '../domain/index.js';
import { createAppLine } from './line/app-line.js';
import { promoteHead } from './line/promote-head.js';
import { type CommandJournal, createCommandJournal } from './store/command-journal.js';
import { type DurableWrites, replicaDurabilityFor, replicatedWrites } from './store/durable-writes.js';
import { aheadOf, toJobStatus } from './store/job-status.js';
import { confirmPrune, pruneConfirmedAt } from './store/prune-confirmation.js';
import {
  closeConnection,
  producerConnection,
  type QueueLogger,
  type RedisConnectionOptions,
  silentLogger,
} from './store/redis-connections.js';
import { DEFAULT_PREFIX, SYNC_JOB_NAME, SYNC_QUEUE_NAME, syncKeys } from './store/redis-keys.js';
import type { EnqueueResult, JobStatus, SyncQueueClient } from './sync-queue-client.js';
import type { Initiator } from './sync-reporter.js';
import { parseSyncRequest, type SyncRequest } from './sync-request.js';

export interface SyncQueueOptions {
  connection: RedisConnectionOptions;
  /** BullMQ key prefix; default `bull`. Use `{name}` braces on Redis Cluster. */
  prefix?: string;
  queueName?: string;
  /** The same requestKey within this window (ms, default 60 000) returns the existing job. */
  dedupWindowMs?: number;
  /** Give up on an unreachable Redis after this long (ms, default 2000) with BotError('not_queued'). */
  timeoutMs?: number;
  /** Attempts for transient infrastructure errors (default 5), exponential backoff from `backoffMs` (2000). */
  attempts?: number;
  backoffMs?: number;
  /** History entries kept per application (default 50). */
  historyLimit?: number;
  /**
   * Replicas that must confirm (Redis WAIT, up to `timeoutMs`) a command's journal entry before it is acknowledged;
   * default 1 on Sentinel, 0 otherwise (a single Redis has none; on Cluster WAIT would go to a random node).
   */
  waitReplicas?: number;
  logger?: QueueLogger;
}

/** What BullMQ carries for one job. */
export interface SyncJobData {
  request: SyncRequest;
  enqueuedAt: string;
}

/** The producer. */
export interface SyncQueue extends SyncQueueClient {
  /** Accepted commands not yet queued (written before the bot acknowledges them; docs/queue.md). */
  readonly commands: CommandJournal;
  /**
   * The producer connection's writes (jobs, cancels, prune confirmations) on `waitReplicas` replicas (Redis WAIT on
   * that connection); a click confirms this before Slack shows what it queued (docs/queue.md "Durable clicks").
   */
  readonly durable: DurableWrites;
}

/** Create the producer. Connects lazily in the background; never throws for an unreachable Redis. */
export function createSyncQueue(options: SyncQueueOptions): SyncQueue {
  const logger = options.logger ?? silentLogger;
  const timeoutMs = options.timeoutMs ?? 2000;
  const redis = producerConnection(options.connection, logger, timeoutMs);
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const queueName = options.queueName ?? SYNC_QUEUE_NAME;
  const keys = syncKeys(prefix, queueName);
  const line = createAppLine(redis, keys, options.historyLimit ?? 50);
  const queue = new Queue<SyncJobData>(queueName, { connection: redis, prefix });
  queue.on('error', (err) => logger.debug({ err: err.message }, 'queue error'));

  /**
   * Wait (≤ timeoutMs) until the producer connection is ready. It does not queue commands while connecting
   * (fail-fast when Redis is down), so a read issued right after start-up would fail with "Stream isn't
   * writeable"; every public method calls this first.
   */
  const ready = () => withTimeout(queue.waitUntilReady(), timeoutMs, 'Redis did not become ready');

  async function lineStatus(application: string): Promise<JobStatus[]> {
    await ready();
    const ids = await line.ids(application);
    const records = await line.records(ids);
    return records.flatMap((r, i) => (r ? [toJobStatus(r, i)] : []));
  }

  async function enqueueResult(
    jobId: string,
    application: string,
    duplicate: boolean,
  ): Promise<EnqueueResult> {
    const ids = await line.ids(application);
    const position = Math.max(0, ids.indexOf(jobId));
    const ahead = aheadOf(await line.records(ids.slice(0, position)), position);
    return { jobId, duplicate, position, ahead };
  }

  async function add(
    request: SyncRequest,
    jobId: string,
    enqueuedAt: string,
    delayMs: number | undefined,
  ): Promise<string> {
    const job = await queue.add(
      SYNC_JOB_NAME,
      { request, enqueuedAt },
      {
        jobId,
        ...(delayMs ? { delay: delayMs } : {}),
        deduplication: {
          id: `${request.application}:${request.requestKey}`,
          ttl: options.dedupWindowMs ?? 60_000,
        },
        attempts: options.attempts ?? 5,
        backoff: { type: 'exponential', delay: options.backoffMs ?? 2000 },
        removeOnComplete: { count: 1000 },
        removeOnFail: { count: 5000 },
      },
    );
    return job.id ?? jobId;
  }

  // Below the connection's command timeout, so a shortfall is reported as such.
  const durability = replicaDurabilityFor(options.connection, Math.floor(timeoutMs / 2));
  if (options.waitReplicas !== undefined) durability.replicas = options.waitReplicas;
  return {
    commands: createCommandJournal(redis, keys, ready, durability),
    durable: replicatedWrites([redis], durability),
    async enqueueSync(req, enqueueOptions) {
      const request = parseSyncRequest(req);
      const jobId = enqueueOptions?.jobId ?? randomUUID();
      const enqueuedAt = new Date().toISOString();
      let id: string;
      let known = false;
      try {
        await ready();
        // A caller-chosen job id that is already registered is a duplicate even after BullMQ dropped the job.
        known = enqueueOptions?.jobId !== undefined && (await line.records([jobId]))[0] !== undefined;
        id = known ? jobId : await add(request, jobId, enqueuedAt, enqueueOptions?.delayMs);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        logger.warn({ application: request.application, err: reason }, 'sync not queued');
        throw new BotError(
          'not_queued',
          `Sync of ${request.application} not queued: Redis is unreachable (${reason}). Try again.`,
          { cause: err },
        );
      }
      const duplicate = id !== jobId || known;
      try {
        if (!duplicate) await line.register(jobId, request, enqueuedAt);
        return await enqueueResult(id, request.application, duplicate);
      } catch (err) {
        // The job is in BullMQ; its worker registers it in the line itself. Only the position is unknown.
        logger.warn({ jobId: id, err: String(err) }, 'queued, but the line position could not be read');
        return { jobId: id, duplicate, position: 0, ahead: [] };
      }
    },
    applicationStatus: lineStatus,
    async allStatus() {
      await ready();
      const apps = (await redis.smembers(keys.apps)).sort();
      return (await Promise.all(apps.map(lineStatus))).flat();
    },
    async jobStatus(jobId) {
      await ready();
      const [record] = await line.records([jobId]);
      if (!record) return undefined;
      const ids = await line.ids(record.application);
      const index = ids.indexOf(jobId);
      return toJobStatus(record, index < 0 ? undefined : index);
    },
    async cancel(application: string, by: Initiator, jobId?: string) {
      await ready();
      const target = jobId ?? (await line.ids(application))[0];
      if (!target) return { cancelled: 'none' };
      const { outcome, head } = await line.cancel(target, application, by);
      if (outcome === 'waiting') {
        await queue.remove(target).catch(() => 0);
        if (head) await promoteHead(queue, head);
      }
      return outcome === 'none' ? { cancelled: 'none' } : { cancelled: outcome, jobId: target };
    },
    confirmPrune: async (application, by) => {
      await ready();
      return confirmPrune(redis, keys, application, by);
    },
    pruneConfirmedAt: async (application) => {
      await ready();
      return pruneConfirmedAt(redis, keys, application);
    },
    history: async (application, limit = 10) => {
      await ready();
      return line.history(application, limit);
    },
    async close() {
      await queue.close().catch(() => undefined);
      await closeConnection(redis);
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
