/**
 * AppLine — the per-application FIFO line kept in Redis next to BullMQ (docs/queue.md). A job may run only
 * while it is the head of its application's line; it leaves the line when it finishes or is cancelled.
 */

import type { OperationState, WaveRef } from '../../domain/index.js';
import { runScript } from '../store/lua-script.js';
import type { RedisClient } from '../store/redis-connections.js';
import type { SyncKeys } from '../store/redis-keys.js';
import type { HistoryEntry, JobState } from '../sync-queue-client.js';
import type { Initiator } from '../sync-reporter.js';
import { parseSyncRequest, type SyncRequest } from '../sync-request.js';
import { ACQUIRE, CANCEL, FINISH, REGISTER, REGISTER_AND_ACQUIRE, UPDATE } from './app-line-scripts.js';

/** How long a finished job's record (status, state) is kept: 7 days, in seconds. */
const RETAIN_FINISHED_SECONDS = 7 * 24 * 3600;

/** A job's record as stored in its Redis hash. */
export interface JobRecord {
  jobId: string;
  application: string;
  request: SyncRequest;
  enqueuedAt: string;
  status: JobState;
  startedAt?: string;
  finishedAt?: string;
  message?: string;
  state?: OperationState;
  wave?: WaveRef;
  cancelledBy?: Initiator;
}

export type AcquireResult =
  /** `previousOwner`: the owner token of the delivery that held the turn before; absent on a job's first run. */
  | { kind: 'acquired'; previousOwner?: string }
  | { kind: 'finished'; status: JobState }
  | { kind: 'blocked'; head: string }
  | { kind: 'unregistered' };

/** History entries kept: `of(application)` when it says, else `default`. */
export interface HistoryLimit {
  default: number;
  of(application: string): number | undefined;
}

interface FinishInput {
  jobId: string;
  application: string;
  status: 'completed' | 'failed' | 'cancelled';
  message: string;
  history: HistoryEntry | undefined;
  /** Owner token; undefined to finish a job whose worker is gone (repair). */
  owner: string | undefined;
}

export interface AppLine {
  register(jobId: string, request: SyncRequest, enqueuedAt: string): Promise<boolean>;
  acquire(jobId: string, application: string, owner: string): Promise<AcquireResult>;
  /**
   * register, then acquire, in one round trip; with the job's record as acquire left it (a picked job's first
   * step: its line, its turn and its saved state at once).
   */
  registerAndAcquire(
    jobId: string,
    request: SyncRequest,
    enqueuedAt: string,
    owner: string,
  ): Promise<{ turn: AcquireResult; record: JobRecord | undefined }>;
  /** Resolves with the new head ('' when the line is empty), or undefined when another worker owns the job. */
  finish(input: FinishInput): Promise<{ finishedNow: boolean; head: string } | undefined>;
  /** Write fields if `owner` still owns the job; false otherwise. */
  update(jobId: string, owner: string, fields: Record<string, string>): Promise<boolean>;
  cancel(
    jobId: string,
    application: string,
    by: Initiator,
  ): Promise<{ outcome: 'none' | 'running' | 'waiting'; head?: string }>;
  ids(application: string): Promise<string[]>;
  records(jobIds: readonly string[]): Promise<(JobRecord | undefined)[]>;
  history(application: string, limit: number): Promise<HistoryEntry[]>;
}

/** Create the line operations over one Redis connection. */
/**
 * `historyLimit`: history entries kept per application, or a function of the application's name that may say
 * otherwise for one (`spec.revisionHistoryLimit`; undefined: the default); never fewer than 1.
 */
export function createAppLine(
  redis: RedisClient,
  keys: SyncKeys,
  historyLimit: number | HistoryLimit,
): AppLine {
  const limitOf = (application: string) =>
    typeof historyLimit === 'number'
      ? historyLimit
      : Math.max(1, historyLimit.of(application) ?? historyLimit.default);
  return {
    async register(jobId, request, enqueuedAt) {
      const args = [jobId, request.application, JSON.stringify(request), enqueuedAt];
      const keyList = [keys.line(request.application), keys.apps, keys.job(jobId)];
      return (await runScript(redis, REGISTER, keyList, args)) === 1;
    },
    async acquire(jobId, application, owner) {
      const now = new Date().toISOString();
      const reply = (await runScript(
        redis,
        ACQUIRE,
        [keys.line(application), keys.job(jobId)],
        [jobId, owner, now],
      )) as string[];
      return acquireResultOf(reply);
    },
    async registerAndAcquire(jobId, request, enqueuedAt, owner) {
      const args = [
        jobId,
        request.application,
        JSON.stringify(request),
        enqueuedAt,
        owner,
        new Date().toISOString(),
      ];
      const keyList = [keys.line(request.application), keys.apps, keys.job(jobId)];
      const reply = (await runScript(redis, REGISTER_AND_ACQUIRE, keyList, args)) as string[];
      const hash: Record<string, string> = {};
      for (let i = 2; i + 1 < reply.length; i += 2) hash[reply[i]!] = reply[i + 1]!;
      return { turn: acquireResultOf(reply), record: toRecord(jobId, hash) };
    },
    async finish(input) {
      const { jobId, application } = input;
      const keyList = [
        keys.line(application),
        keys.job(jobId),
        keys.history(application),
        keys.cancel(jobId),
        keys.historySeq(application),
      ];
      const history = input.history ? JSON.stringify(input.history) : '';
      const args = [
        jobId,
        input.status,
        new Date().toISOString(),
        input.message,
        history,
        limitOf(application),
        input.owner ?? '',
        RETAIN_FINISHED_SECONDS,
      ];
      const [code, head] = (await runScript(redis, FINISH, keyList, args)) as [number, string];
      return code === -1 ? undefined : { finishedNow: code === 1, head };
    },
    async update(jobId, owner, fields) {
      const args = [owner, ...Object.entries(fields).flat()];
      return (await runScript(redis, UPDATE, [keys.job(jobId)], args)) === 1;
    },
    async cancel(jobId, application, by) {
      const keyList = [keys.line(application), keys.job(jobId), keys.cancel(jobId)];
      const message = `cancelled by ${by.userName || by.userId} before it started`;
      const args = [
        jobId,
        application,
        JSON.stringify(by),
        new Date().toISOString(),
        keys.cancelChannel,
        RETAIN_FINISHED_SECONDS,
        message,
      ];
      const [outcome, head] = (await runScript(redis, CANCEL, keyList, args)) as [
        'none' | 'running' | 'waiting',
        string?,
      ];
      return head === undefined ? { outcome } : { outcome, head };
    },
    ids: (application) => redis.lrange(keys.line(application), 0, -1),
    async records(jobIds) {
      if (jobIds.length === 0) return [];
      const pipeline = redis.pipeline();
      for (const id of jobIds) pipeline.hgetall(keys.job(id));
      const replies = (await pipeline.exec()) ?? [];
      return replies.map(([err, hash], i) => {
        if (err) throw err;
        return toRecord(jobIds[i] ?? '', hash as Record<string, string>);
      });
    },
    async history(application, limit) {
      const rows = await redis.lrange(keys.history(application), 0, Math.max(0, limit - 1));
      return rows.map((row) => JSON.parse(row) as HistoryEntry);
    },
  };
}

/** ACQUIRE's reply (its first two entries) as an AcquireResult. */
function acquireResultOf(reply: readonly string[]): AcquireResult {
  if (reply[0] === 'acquired')
    return reply[1] ? { kind: 'acquired', previousOwner: reply[1] } : { kind: 'acquired' };
  if (reply[0] === 'finished') return { kind: 'finished', status: reply[1] as JobState };
  if (reply[0] === 'blocked') return { kind: 'blocked', head: reply[1] ?? '' };
  return { kind: 'unregistered' };
}

function toRecord(jobId: string, hash: Record<string, string>): JobRecord | undefined {
  if (!hash.request || !hash.status || !hash.application || !hash.enqueuedAt) return undefined;
  const record: JobRecord = {
    jobId,
    application: hash.application,
    request: parseSyncRequest(JSON.parse(hash.request)),
    enqueuedAt: hash.enqueuedAt,
    status: hash.status as JobState,
  };
  if (hash.startedAt) record.startedAt = hash.startedAt;
  if (hash.finishedAt) record.finishedAt = hash.finishedAt;
  if (hash.message) record.message = hash.message;
  if (hash.state) record.state = JSON.parse(hash.state) as OperationState;
  if (hash.wave) record.wave = JSON.parse(hash.wave) as WaveRef;
  if (hash.cancelledBy) record.cancelledBy = JSON.parse(hash.cancelledBy) as Initiator;
  return record;
}
