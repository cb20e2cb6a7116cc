/**
 * Names of the queue, the job and every Redis key wavesync adds next to BullMQ's own keys.
 * All keys start with `<prefix>:<queueName>:`, like BullMQ's, so a `{braced}` prefix keeps them in one
 * Redis Cluster hash slot (required by the multi-key Lua scripts).
 */

/** BullMQ queue that carries sync requests. */
export const SYNC_QUEUE_NAME = 'sync-operations';
/** BullMQ job name of a sync request. */
export const SYNC_JOB_NAME = 'sync';
/** BullMQ's default key prefix. */
export const DEFAULT_PREFIX = 'bull';

export interface SyncKeys {
  /** SET of application names that ever had a line. */
  apps: string;
  /** LIST of job ids of one application in FIFO order; index 0 is running or next. */
  line(application: string): string;
  /** HASH with a job's request, status, persisted OperationState and current wave. */
  job(jobId: string): string;
  /** STRING present while a cancel of a running job is requested (value: Initiator JSON). */
  cancel(jobId: string): string;
  /** LIST of HistoryEntry JSON, newest first, capped. */
  history(application: string): string;
  /** STRING counter: the last history id given to an entry of the application (`/sync rollback <app> ID`). */
  historySeq(application: string): string;
  /** Pub/sub channel on which cancel requests for running jobs are announced (message: job id). */
  cancelChannel: string;
  /**
   * STRING: JSON `{ at, by }` of the last pruning confirmation of an application (`/sync confirm-prune`), Argo
   * CD's `argocd.argoproj.io/deletion-approved` annotation: it counts for operations started at or before `at`.
   */
  pruneConfirmed(application: string): string;
  /** ZSET of accepted commands not yet handed to the queue (command journal), scored by lease expiry in ms. */
  commands: string;
  /** HASH of one accepted command: `payload` (JSON), `header` (JSON `{ channel, ts }` once posted), `at`. */
  command(id: string): string;
}

/** Build the key names for one queue. */
export function syncKeys(prefix: string = DEFAULT_PREFIX, queueName: string = SYNC_QUEUE_NAME): SyncKeys {
  const base = `${prefix}:${queueName}:ws`;
  return {
    apps: `${base}:apps`,
    line: (application) => `${base}:line:${application}`,
    job: (jobId) => `${base}:job:${jobId}`,
    cancel: (jobId) => `${base}:cancel:${jobId}`,
    history: (application) => `${base}:history:${application}`,
    historySeq: (application) => `${base}:history-seq:${application}`,
    cancelChannel: `${base}:cancel`,
    pruneConfirmed: (application) => `${base}:prune-confirmed:${application}`,
    commands: `${base}:commands`,
    command: (id) => `${base}:command:${id}`,
  };
}
