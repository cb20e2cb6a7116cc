/**
 * An in-memory SyncQueueClient for the Slack app's tests: per-application lines (one active job, then waiting
 * jobs in order), deduplication of a requestKey within a window, cancel, history, and a switch that makes every
 * call fail as the real queue does when Redis is down (BotError 'not_queued'). Records every request.
 */
import { BotError } from '../../src/domain/index.js';
import type { Initiator } from '../../src/queue/sync-reporter.js';
import { recordedOperation } from '../../src/queue/sync-request.js';
import type {
  EnqueueResult,
  HistoryEntry,
  JobStatus,
  SyncJob,
  SyncQueueClient,
  SyncRequest,
} from '../../src/slack/ports.js';

export class InMemorySyncQueue implements SyncQueueClient {
  readonly requests: SyncRequest[] = [];
  readonly cancels: { application: string; by: Initiator; jobId?: string }[] = [];
  /** Pruning confirmations by application: time and who. */
  readonly pruneConfirmations = new Map<string, { at: string; by: Initiator }>();
  private readonly jobs: JobStatus[] = [];
  private readonly keys = new Map<string, { jobId: string; at: number }>();
  private readonly past: HistoryEntry[] = [];
  private down = false;
  private seq = 0;
  private readonly dedupWindowMs: number;

  constructor(dedupWindowMs = 60_000) {
    this.dedupWindowMs = dedupWindowMs;
  }

  /** Make every call throw BotError('not_queued') (true) or work again (false). */
  setDown(down: boolean): void {
    this.down = down;
  }

  /** Put a job in the line as if someone else had queued it; the first job of an application becomes active. */
  seed(
    request: Pick<SyncJob, 'application' | 'initiator' | 'target' | 'operation'>,
    extra: Partial<JobStatus> = {},
  ): JobStatus {
    const active = !this.jobs.some((j) => j.application === request.application && isLive(j));
    const job: JobStatus = {
      jobId: `job-${++this.seq}`,
      application: request.application,
      state: active ? 'active' : 'waiting',
      initiator: request.initiator,
      target: request.target,
      operation: request.operation,
      enqueuedAt: new Date().toISOString(),
      ...extra,
    };
    this.jobs.push(job);
    return job;
  }

  /** Record a finished operation for `history`. */
  addHistory(entry: HistoryEntry): void {
    this.past.unshift(entry);
  }

  async enqueueSync(req: SyncRequest): Promise<EnqueueResult> {
    this.check();
    this.requests.push(req);
    const key = `${req.application}:${req.requestKey}`;
    const seen = this.keys.get(key);
    if (seen && Date.now() - seen.at < this.dedupWindowMs)
      return { ...this.positionOf(seen.jobId), duplicate: true };
    const job = this.seed({ ...req, operation: recordedOperation(req) });
    this.keys.set(key, { jobId: job.jobId, at: Date.now() });
    return { ...this.positionOf(job.jobId), duplicate: false };
  }

  async applicationStatus(application: string): Promise<JobStatus[]> {
    this.check();
    return this.line(application).map((j, position) => ({ ...j, position }));
  }

  async allStatus(): Promise<JobStatus[]> {
    this.check();
    const apps = [...new Set(this.jobs.map((j) => j.application))];
    return apps.flatMap((a) => this.line(a).map((j, position) => ({ ...j, position })));
  }

  async jobStatus(jobId: string): Promise<JobStatus | undefined> {
    this.check();
    return this.jobs.find((j) => j.jobId === jobId);
  }

  async cancel(
    application: string,
    by: Initiator,
    jobId?: string,
  ): Promise<{ cancelled: 'waiting' | 'running' | 'none'; jobId?: string }> {
    this.check();
    this.cancels.push({ application, by, ...(jobId ? { jobId } : {}) });
    const job = jobId ? this.line(application).find((j) => j.jobId === jobId) : this.line(application)[0];
    if (!job) return { cancelled: 'none' };
    const was = job.state === 'active' ? 'running' : 'waiting';
    job.state = 'cancelled';
    return { cancelled: was, jobId: job.jobId };
  }

  async confirmPrune(application: string, by: Initiator): Promise<string> {
    this.check();
    const at = new Date().toISOString();
    this.pruneConfirmations.set(application, { at, by });
    return at;
  }

  async pruneConfirmedAt(application: string): Promise<string | undefined> {
    return this.pruneConfirmations.get(application)?.at;
  }

  async history(application: string, limit = 10): Promise<HistoryEntry[]> {
    this.check();
    return this.past.filter((h) => h.application === application).slice(0, limit);
  }

  async close(): Promise<void> {}

  private line(application: string): JobStatus[] {
    return this.jobs
      .filter((j) => j.application === application && isLive(j))
      .sort((a, b) => (a.state === 'active' ? -1 : b.state === 'active' ? 1 : 0));
  }

  private positionOf(jobId: string): Omit<EnqueueResult, 'duplicate'> {
    const job = this.jobs.find((j) => j.jobId === jobId)!;
    const line = this.line(job.application);
    const position = Math.max(
      0,
      line.findIndex((j) => j.jobId === jobId),
    );
    const ahead = line.slice(0, position).map((j) => ({
      jobId: j.jobId,
      initiator: j.initiator,
      state: j.state === 'active' ? ('active' as const) : ('waiting' as const),
      ...(j.currentWave ? { wave: j.currentWave } : {}),
    }));
    return { jobId, position, ahead };
  }

  private check(): void {
    if (this.down) throw new BotError('not_queued', 'Redis is unreachable (connection refused)');
  }
}

function isLive(job: JobStatus): boolean {
  return job.state === 'waiting' || job.state === 'active';
}
