/**
 * SyncQueueClient — what callers (Slack, the CLI) see of the queue: enqueue, status, cancel, history.
 * Implemented by `createSyncQueue`; fakes in callers' tests implement the same interface.
 */
import type {
  ApplicationSource,
  HealthStatus,
  OperationPhase,
  OperationState,
  SyncOperation,
  WaveRef,
} from '../domain/index.js';
import type { Initiator, ReportTarget } from './sync-reporter.js';
import type { PromotionRef, RollbackRef, SyncRequest } from './sync-request.js';

/** Where a job stands. `cancelled` covers both a removed waiting job and a terminated running one. */
export type JobState = 'waiting' | 'active' | 'completed' | 'failed' | 'cancelled';

/** A job ahead in the same application's line. */
export interface JobAhead {
  jobId: string;
  initiator: Initiator;
  state: 'active' | 'waiting';
  /** Wave the running job is in (from its last WaveStarted event). */
  wave?: WaveRef;
  /** Phase of the running job's OperationState. */
  phase?: OperationPhase;
}

export interface EnqueueResult {
  jobId: string;
  /** True when the same requestKey was enqueued within the dedup window; `jobId` is the existing job. */
  duplicate: boolean;
  /** Index in the application's line: 0 = running or next. */
  position: number;
  ahead: JobAhead[];
}

export interface JobStatus {
  jobId: string;
  application: string;
  state: JobState;
  /** Index in the application's line (waiting/active only). */
  position?: number;
  initiator: Initiator;
  target: ReportTarget | undefined;
  operation: SyncOperation;
  /** Last persisted OperationState (active and finished jobs). */
  operationState?: OperationState;
  currentWave?: WaveRef;
  /** ISO-8601. */
  enqueuedAt: string;
}

/** One finished operation of an application, for `/sync history` and rollback. */
export interface HistoryEntry {
  /**
   * The application's history id (1, 2, …; Argo CD's `RevisionHistory.id`), given when the entry is recorded
   * (Redis INCR, never reused). Absent on entries recorded before ids existed.
   */
  id?: number;
  jobId: string;
  application: string;
  initiator: Initiator;
  /**
   * The exact revision synced: the git commit SHA the worker resolved (a Helm chart in git is pinned by it too),
   * or the content hash of a local folder's manifests; else the requested revision; else ''.
   */
  revision: string;
  /**
   * The source as synced (Argo CD's `RevisionHistory.source`): repoURL, path, targetRevision, chart, helm
   * values/parameters, directory and kustomize options. A rollback to this entry syncs it. Absent on entries recorded
   * before sources were kept (a rollback then uses the Application's current source, with a warning in the thread).
   */
  source?: ApplicationSource;
  /**
   * A multi-source Application's sources as synced (Argo CD's `RevisionHistory.sources`), in order; `revision` then
   * holds each source's revision, joined by `;`. A rollback to this entry syncs them.
   */
  sources?: ApplicationSource[];
  /** Set on a dry run (nothing applied: never a rollback target). */
  dryRun?: true;
  /** Set on a `/sync delete` job (never a rollback target). */
  deletion?: true;
  /** Set when this operation was a rollback: to which history entry and revision. */
  rollback?: RollbackRef;
  /** Why an automated sync started (SyncRequest.trigger), e.g. `push 3f9c2e1 from GitHub`. */
  trigger?: string;
  /** Set when this operation was a promotion (`/sync promote`): from which stage, which revision, how verified. */
  promotion?: PromotionRef;
  phase: OperationPhase;
  message: string;
  /** ISO-8601. */
  startedAt: string;
  /** ISO-8601. */
  finishedAt: string;
  durationMs: number;
  health?: HealthStatus;
}

/** How to enqueue. */
export interface EnqueueOptions {
  /**
   * Use this job id (a UUID) instead of a random one: enqueueing the same id again is a duplicate for as long as
   * the job's record is kept (7 days), not only within the requestKey window. App of Apps children use an id
   * derived from the parent job and the child, so a resumed or retried parent never starts a child twice.
   */
  jobId?: string;
  /** Start no earlier than this many ms from now (a BullMQ delayed job; `spec.syncPolicy.retry` backoff). */
  delayMs?: number;
}

export interface SyncQueueClient {
  /**
   * Queue a sync. Resolves with the job id, whether it was a duplicate, and who is ahead.
   * @throws BotError('not_queued') when Redis is unreachable; BotError('invalid_command') for a bad request.
   */
  enqueueSync(req: SyncRequest, options?: EnqueueOptions): Promise<EnqueueResult>;
  /** The application's line: running first, then waiting in order. */
  applicationStatus(application: string): Promise<JobStatus[]>;
  /** Every application's line. */
  allStatus(): Promise<JobStatus[]>;
  /** One job (also finished ones, for the retention period); undefined when unknown. */
  jobStatus(jobId: string): Promise<JobStatus | undefined>;
  /**
   * Cancel `jobId`, or the application's running (else next) job. A waiting job is removed; a running job
   * is terminated by its worker (cooperatively, from any process). `by.reason` (optional) is kept with the cancel
   * and shown by the reporters (OperationCompleted.cancelledBy). Authorization is the caller's.
   */
  cancel(
    application: string,
    by: Initiator & { reason?: string },
    jobId?: string,
  ): Promise<{ cancelled: 'waiting' | 'running' | 'none'; jobId?: string }>;
  /**
   * Confirm pruning of the application's `Prune=confirm` resources now (Argo CD: the `deletion-approved`
   * annotation): a running operation of the application that waits for it goes on at its next pass (≤ the
   * engine's poll interval). Resolves with the confirmation time (ISO-8601). Authorization is the caller's.
   */
  confirmPrune(application: string, by: Initiator): Promise<string>;
  /** The application's last pruning confirmation time (ISO-8601), or undefined. */
  pruneConfirmedAt(application: string): Promise<string | undefined>;
  /** Last `limit` (default 10) finished operations of the application, newest first. */
  history(application: string, limit?: number): Promise<HistoryEntry[]>;
  close(): Promise<void>;
}
