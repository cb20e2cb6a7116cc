/**
 * The ports the Slack app codes against: the sync queue (enqueue, status, cancel, history) and the catalog of
 * Applications. Structurally identical to what `src/queue` and the Applications registry export, so the
 * composition root can pass the real implementations; tests pass in-memory doubles.
 */
import type {
  HealthStatus,
  OperationPhase,
  OperationState,
  SyncOperation,
  WaveRef,
} from '../domain/index.js';
import type { Initiator, ReportTarget } from '../reporting/sync-reporter.js';

/** One `/sync <app>` request as the queue receives it. */
export interface SyncRequest {
  application: string;
  operation: SyncOperation;
  initiator: Initiator;
  target: ReportTarget | undefined;
  /** Idempotency key: the same key enqueued twice yields `duplicate: true` and the first job's id. */
  requestKey: string;
}

/** A job ahead of a newly enqueued one, for "2nd in line behind @lee's sync". */
export interface JobAhead {
  jobId: string;
  initiator: Initiator;
  state: 'active' | 'waiting';
  wave?: WaveRef;
  phase?: OperationPhase;
}

export interface EnqueueResult {
  jobId: string;
  duplicate: boolean;
  /** 0 = running or next in line. */
  position: number;
  ahead: JobAhead[];
}

export type JobState = 'waiting' | 'active' | 'completed' | 'failed' | 'cancelled';

export interface JobStatus {
  jobId: string;
  application: string;
  state: JobState;
  position?: number;
  initiator: Initiator;
  target: ReportTarget | undefined;
  operation: SyncOperation;
  operationState?: OperationState;
  currentWave?: WaveRef;
  /** ISO-8601. */
  enqueuedAt: string;
}

export interface HistoryEntry {
  jobId: string;
  application: string;
  initiator: Initiator;
  revision: string;
  phase: OperationPhase;
  message: string;
  /** ISO-8601. */
  startedAt: string;
  /** ISO-8601. */
  finishedAt: string;
  durationMs: number;
  health?: HealthStatus;
}

export interface CancelResult {
  cancelled: 'waiting' | 'running' | 'none';
  jobId?: string;
}

/** The queue as the bot sees it. `enqueueSync` throws BotError('not_queued') when the queue is unreachable. */
export interface SyncQueueClient {
  enqueueSync(req: SyncRequest): Promise<EnqueueResult>;
  applicationStatus(application: string): Promise<JobStatus[]>;
  allStatus(): Promise<JobStatus[]>;
  jobStatus(jobId: string): Promise<JobStatus | undefined>;
  cancel(application: string, by: Initiator, jobId?: string): Promise<CancelResult>;
  /** Most recent first. */
  history(application: string, limit?: number): Promise<HistoryEntry[]>;
  close(): Promise<void>;
}

/** What the bot shows about one Application. */
export interface ApplicationSummary {
  name: string;
  environment?: string;
  /** Destination, e.g. `in-cluster/guestbook`. */
  destination: string;
  /** Source, e.g. `https://github.com/argoproj/argocd-example-apps#guestbook`. */
  source: string;
}

/** The Applications the bot may sync. */
export interface ApplicationCatalog {
  names(): string[];
  describe(name: string): ApplicationSummary | undefined;
}
