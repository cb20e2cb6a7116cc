/**
 * `spec.syncPolicy.retry` as Argo CD applies it (controller/appcontroller.go processRequestedAppOperation,
 * `RetryStrategy.NextRetryAt` in pkg/apis/application/v1alpha1/types.go): an operation that ends Failed or Error is
 * synced again after a backoff — `duration × factor^n` for the n-th retry (n from 0), at most `maxDuration`;
 * defaults 5 s, ×2, 3 min — as long as fewer than `limit` retries ran (a negative limit: no end; 0: none). A
 * terminated (cancelled) operation is not retried. With `refresh: true` a retry resolves `targetRevision` again,
 * otherwise it syncs the commit the failed attempt resolved.
 *
 * The retry is a new job in the application's line, requested (origin `retry`, through the port the wiring gives)
 * by the worker that ends the failed job (a JobLifecycle
 * `ended` hook, so it survives a crash: the hook runs again and the derived job id makes the second enqueue a
 * duplicate), delayed in BullMQ by the backoff and told in the same Slack thread.
 */
import type { OperationState, RetryStrategy } from '../domain/index.js';
import { derivedJobId } from './derived-job-id.js';
import type { JobLifecycle } from './job-lifecycle.js';
import type { QueueLogger } from './store/redis-connections.js';
import type { EnqueueResult } from './sync-queue-client.js';
import type { ReportTarget } from './sync-reporter.js';
import type { SyncJob } from './sync-request.js';

const DEFAULT_DURATION_MS = 5_000;
const DEFAULT_FACTOR = 2;
const DEFAULT_MAX_DURATION_MS = 180_000;

const GO_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Milliseconds of a backoff duration as Argo CD reads it: a bare integer is seconds, anything else a Go duration
 * (`5s`, `3m0s`, `1h30m`, `500ms`). @throws Error naming the value when it is neither.
 */
export function parseRetryDuration(text: string): number {
  if (/^-?\d+$/.test(text.trim())) return Number(text) * 1000;
  const parts = [...text.trim().matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text.trim()) {
    throw new Error(`"${text}" is not a duration (e.g. 5s, 3m0s, or seconds as a number)`);
  }
  return parts.reduce((ms, p) => ms + Number(p[1]) * (GO_UNITS[p[2] ?? 's'] ?? 0), 0);
}

export interface NextRetry {
  /** The attempt the retry is (2 = the first retry). */
  attempt: number;
  /** Attempts in all (limit + 1), or undefined without a limit. */
  attempts: number | undefined;
  delayMs: number;
}

/**
 * The retry after attempt `attempt` (1 = the first run) failed, or undefined when `strategy` allows no more.
 * @throws Error for a backoff duration that does not parse.
 */
export function nextRetry(strategy: RetryStrategy | undefined, attempt: number): NextRetry | undefined {
  if (!strategy) return undefined;
  const limit = strategy.limit ?? 0;
  const retries = attempt - 1;
  if (limit >= 0 && retries >= limit) return undefined;
  const backoff = strategy.backoff ?? {};
  const duration = backoff.duration ? parseRetryDuration(backoff.duration) : DEFAULT_DURATION_MS;
  const factor = backoff.factor ?? DEFAULT_FACTOR;
  const max = backoff.maxDuration ? parseRetryDuration(backoff.maxDuration) : DEFAULT_MAX_DURATION_MS;
  const wait = duration * factor ** retries;
  return {
    attempt: attempt + 1,
    attempts: limit < 0 ? undefined : limit + 1,
    delayMs: Math.round(max > 0 ? Math.min(max, wait) : wait),
  };
}

/** `attempt 2 of 5 in 20 s: <reason>` (or `attempt 2 (no limit) in …`). */
export function retryLine(next: NextRetry, reason: string): string {
  const of = next.attempts === undefined ? ' (no limit)' : ` of ${next.attempts}`;
  const seconds = next.delayMs / 1000;
  const delay = seconds >= 1 ? `${Number(seconds.toFixed(1))} s` : `${next.delayMs} ms`;
  return `🔁 syncPolicy.retry: attempt ${next.attempt}${of} in ${delay}: ${reason}`;
}

export interface SyncRetryDeps {
  /**
   * Queue the retry: the request path's `retry` origin (src/requests/for-main.ts requestRetrySync, wired in
   * src/main/), never the queue directly — every sync is requested through src/requests.
   */
  requestRetry(ask: { request: SyncJob; jobId: string; delayMs: number }): Promise<EnqueueResult>;
  /** The Application's `spec.syncPolicy.retry`, if it has one (undefined for an unknown Application). */
  retryStrategyOf(application: string): RetryStrategy | undefined;
  /** Say the scheduled retry in the job's thread (not called for a duplicate enqueue). */
  announce?(target: ReportTarget, text: string): Promise<void>;
  /**
   * Resolves once the ended job's own thread is delivered (a job ends once its lines are in the outbox, and they
   * are posted after it): the note waits for it, so it lands below the failed attempt's summary, never above.
   */
  threadDelivered?(jobId: string): Promise<void>;
  logger?: QueueLogger;
}

const SHA = /^[0-9a-f]{40}$/;

/**
 * The `ended` hook that enqueues the retry of a failed operation. Not retried: cancelled (terminated) jobs,
 * Succeeded ones, dry runs (a preview), deletions, App of Apps children (their parent's chain decides) and the
 * Applications of a rollout (it stops at the first failure).
 */
export function syncRetryLifecycle(deps: SyncRetryDeps): Required<Pick<JobLifecycle, 'ended'>> {
  return {
    async ended({ jobId, request, state, cancelled }) {
      if (cancelled || request.deletion || request.appOfApps || request.rollout || request.operation.dryRun)
        return;
      if (state.phase !== 'Failed' && state.phase !== 'Error') return;
      const attempt = request.retry?.attempt ?? 1;
      const strategy = deps.retryStrategyOf(request.application);
      let next: NextRetry | undefined;
      try {
        next = nextRetry(strategy, attempt);
      } catch (err) {
        deps.logger?.warn({ jobId, err: String(err) }, 'syncPolicy.retry not applied');
        return;
      }
      if (!next) return;
      const reason = state.message || `Operation ${state.phase}`;
      const retry = await deps.requestRetry({
        request: retryRequest(request, state, next, reason, strategy),
        jobId: derivedJobId(jobId, 'syncPolicy.retry'),
        delayMs: next.delayMs,
      });
      deps.logger?.info?.({ jobId, retryJobId: retry.jobId, attempt: next.attempt }, 'sync retry queued');
      if (retry.duplicate || !request.target || !deps.announce) return;
      await deps.threadDelivered?.(jobId);
      await deps.announce(request.target, retryLine(next, reason));
    },
  };
}

function retryRequest(
  request: SyncJob,
  state: OperationState,
  next: NextRetry,
  reason: string,
  strategy: RetryStrategy | undefined,
): SyncJob {
  // Without refresh, the retry syncs the commit the failed attempt resolved (a local folder has no commits).
  const resolved = state.syncResult?.revision;
  const pinned =
    !strategy?.refresh && resolved !== undefined && SHA.test(resolved) ? { revision: resolved } : {};
  return {
    ...request,
    operation: { ...request.operation, ...pinned },
    requestKey: `${request.requestKey.slice(0, 150)}:retry:${next.attempt}`,
    retry: {
      attempt: next.attempt,
      ...(next.attempts === undefined ? {} : { attempts: next.attempts }),
      delayMs: next.delayMs,
      reason: reason.slice(0, 500),
    },
  };
}
