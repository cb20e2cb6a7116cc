/**
 * The BullMQ processor of a sync job: take the application's turn, run (or resume) the operation with the
 * persisted OperationState, record the outcome, and hand the line to the next job.
 * Outcomes: Succeeded → completed; Failed/Error → failed, never retried (UnrecoverableError); transient
 * errors → retried by BullMQ with backoff while the job keeps its place at the head of the line.
 */
import { type Job, type Queue, UnrecoverableError, WaitingError } from 'bullmq';
import { isCompleted, type OperationState } from '../domain/index.js';
import { isCompletedState, isFinished, reportCompleted } from './completed-state.js';
import { endedOutsideRunner } from './ended-outside-runner.js';
import { endedEarlier, retryOf, waitForRetryBackoff, waitForStaleRun } from './job-delivery.js';
import type { JobLifecycle } from './job-lifecycle.js';
import type { AppLine, JobRecord } from './line/app-line.js';
import { promoteHead } from './line/promote-head.js';
import type { RunningJob, RunningJobs } from './line/running-jobs.js';
import { takeTurn } from './line/take-turn.js';
import { mirrorReporter } from './mirror-reporter.js';
import { isTransientError, LockLostError, WorkerShuttingDownError } from './queue-errors.js';
import { type ResumedFrom, resumedFromOf } from './resumed-from.js';
import { operationStateJson } from './state-json.js';
import { historyEntry } from './store/history-entry.js';
import { pruneConfirmedAt } from './store/prune-confirmation.js';
import type { QueueLogger, RedisClient } from './store/redis-connections.js';
import type { SyncKeys } from './store/redis-keys.js';
import type { SyncJobData } from './sync-queue.js';
import type { SyncReporter } from './sync-reporter.js';
import { parseSyncRequest, type SyncRequest } from './sync-request.js';
import type { SyncRunner } from './sync-runner.js';

export interface ProcessorDeps {
  queue: Queue<SyncJobData>;
  redis: RedisClient;
  keys: SyncKeys;
  line: AppLine;
  runner: SyncRunner;
  reporterFactory: (job: {
    jobId: string;
    request: SyncRequest;
    /** A run after a transient error: the attempt (2 = first retry), of how many, and the last error. */
    retry?: { attempt: number; attempts: number; reason: string };
    /** An earlier delivery held the job's turn: on this same worker, or another (resumed-from.ts). */
    resumedFrom?: ResumedFrom;
  }) => SyncReporter;
  /** Running jobs of this worker, for cancel routing. */
  running: RunningJobs;
  isShuttingDown(): boolean;
  recheckMs: number;
  logger: QueueLogger;
  /** Hooks around the operation (App of Apps children); none by default. */
  lifecycle?: JobLifecycle;
}

/** Marks errors thrown after the outcome was recorded, so they pass through unchanged. */
class JobEndedError extends UnrecoverableError {}

interface Run {
  job: Job<SyncJobData>;
  jobId: string;
  request: SyncRequest;
  owner: string;
  record: JobRecord | undefined;
  /** Whose turn this delivery took over, if any (resumed-from.ts). */
  takeover: { resumedFrom?: ResumedFrom };
  running: RunningJob;
  lastState: OperationState | undefined;
}

/** Build the processor function passed to `new Worker(...)`. */
export function createSyncProcessor(deps: ProcessorDeps) {
  return async (job: Job<SyncJobData>, token?: string): Promise<OperationState | undefined> => {
    const jobId = job.id ?? '';
    let request: SyncRequest;
    try {
      request = parseSyncRequest(job.data.request);
    } catch (err) {
      throw new UnrecoverableError(err instanceof Error ? err.message : String(err));
    }
    const owner = token ?? jobId;
    await waitForStaleRun(deps, job, owner);
    await waitForRetryBackoff(job, request, owner);
    // Its line, its turn and its saved state in one round trip (a blocked or dead head asks again in takeTurn).
    const enqueuedAt = job.data.enqueuedAt ?? new Date().toISOString();
    const first = await deps.line.registerAndAcquire(jobId, request, enqueuedAt, owner);
    const turn = await takeTurn(deps, job, request.application, owner, first.turn);
    const record = turn === first.turn ? first.record : (await deps.line.records([jobId]))[0];
    if (turn.kind === 'finished') return endedEarlier(record, turn.status);
    const run: Run = {
      job,
      jobId,
      request,
      owner,
      record,
      takeover: resumedFromOf(turn.previousOwner, owner),
      running: { controller: new AbortController(), lockLost: false },
      lastState: record?.state,
    };
    return runTurn(deps, run);
  };
}

async function runTurn(deps: ProcessorDeps, run: Run): Promise<OperationState> {
  const { jobId, owner } = run;
  const { controller } = run.running;
  deps.running.set(jobId, run.running);
  let reporter: SyncReporter | undefined;
  try {
    reporter = closingOnce(
      mirrorReporter(
        deps.reporterFactory({ jobId, request: run.request, ...retryOf(run.job), ...run.takeover }),
        {
          ...deps,
          jobId,
          owner,
        },
      ),
    );
    if (await deps.redis.exists(deps.keys.cancel(jobId))) controller.abort('cancelled');
    const state = await runOrResume(deps, run, reporter);
    const cancelled = controller.signal.aborted;
    if (deps.lifecycle?.ended) {
      // The thread's last words (summary, final header) go out before whatever the hook posts or starts.
      const closing = reporter;
      reporter = undefined;
      await closing.close();
      await callHook(deps, run.jobId, 'ended', () =>
        deps.lifecycle!.ended!({ jobId: run.jobId, request: run.request, state, cancelled }),
      );
    }
    const status = cancelled ? 'cancelled' : state.phase === 'Succeeded' ? 'completed' : 'failed';
    // The thread's summary and final header go out before the job is recorded as ended: a worker dying in between
    // has the job delivered again, and the resumed (already final) state is recorded then.
    await reporter?.close();
    reporter = undefined;
    await endJob(deps, run, status, state, state.message);
    if (status !== 'completed') throw new JobEndedError(state.message);
    return state;
  } catch (err) {
    if (err instanceof JobEndedError) throw err;
    throw await failedRun(deps, run, err, reporter);
  } finally {
    deps.running.delete(jobId);
    await reporter?.close();
  }
}

/**
 * Call the runner with the persisted state, unless that state is already final (finished before a crash). When
 * the runner throws after the operation was saved completed (resumed for its health step, or completed in this
 * run) and the job is neither handed over nor retried, the job ends from the saved state — with health Unknown
 * when it has none (`endedWithoutHealth`): what follows an operation's end never changes its outcome.
 */
async function runOrResume(deps: ProcessorDeps, run: Run, reporter: SyncReporter): Promise<OperationState> {
  const resumed = run.lastState;
  if (isFinished(resumed, run.request)) {
    // Finished just before its worker died, maybe before the outcome was reported: report it now (a thread that
    // already has the summary skips it — its lines are keyed, docs/queue.md "Each thread line once").
    await reportCompleted(reporter, resumed);
    return resumed;
  }
  try {
    const { started } = deps.lifecycle ?? {};
    if (started) {
      await callHook(deps, run.jobId, 'started', () => started({ jobId: run.jobId, request: run.request }));
    }
    return await deps.runner({
      jobId: run.jobId,
      request: run.request,
      initialState: resumed,
      reporter,
      persist: (s) => persist(deps, run, s),
      signal: run.running.controller.signal,
      pruneConfirmation: () => pruneConfirmedAt(deps.redis, deps.keys, run.request.application),
    });
  } catch (err) {
    // A completed operation keeps its outcome whatever stops its health step (no Application, no render, no
    // cluster, a `started` hook or the runner failing until the retries are spent): the job ends from the saved
    // state, its health Unknown and why. The saved state may be this run's own (completed in the last attempt).
    const saved = run.lastState;
    if (!isCompletedState(saved) || isHandedOver(deps, run, err) || willRetry(run, err)) throw err;
    if (!isFinished(saved, run.request)) {
      const why = `health not checked${saved === resumed ? ' after resume' : ''}: ${lastErrorMessage(run, err)}`;
      return endedWithoutHealth(deps, run, reporter, saved, why);
    }
    await reportCompleted(reporter, saved);
    return saved;
  }
}

/**
 * End a job whose operation was saved completed but whose Application health could not be assessed (the runner
 * threw): its saved phase, revision, resources and message are kept, and its health is Unknown with `why`
 * ("health not checked after resume: Application web not found"). Reported (OperationCompleted — a keyed line,
 * said once — then HealthAssessed) and persisted like the engine's own last steps; the caller ends the job with it.
 */
async function endedWithoutHealth(
  deps: ProcessorDeps,
  run: Run,
  reporter: SyncReporter,
  saved: OperationState & { finishedAt: string },
  why: string,
): Promise<OperationState> {
  const health = { status: 'Unknown', message: why } as const;
  const state: OperationState = { ...saved, health };
  deps.logger.warn({ jobId: run.jobId, why }, 'completed operation ended without its health');
  await reportCompleted(reporter, saved);
  await reporter.report({
    type: 'HealthAssessed',
    at: new Date().toISOString(),
    health,
    unhealthy: [],
    afterMs: 0,
  });
  await persist(deps, run, state);
  return state;
}

/**
 * The message of an error the job ends with: the error's, and for a transient error on the last attempt that the
 * retry budget is spent ("… (gave up after 5 attempts)"), not only the last error.
 */
function lastErrorMessage(run: Run, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const attempts = run.job.opts.attempts ?? 1;
  return isTransientError(err) && attempts > 1 ? `${message} (gave up after ${attempts} attempts)` : message;
}

/** The job goes to another run without an outcome: its lock was lost, or this worker is shutting down. */
function isHandedOver(deps: ProcessorDeps, run: Run, err: unknown): boolean {
  if (err instanceof LockLostError || run.running.lockLost) return true;
  const cancelled = run.running.controller.signal.aborted;
  return !cancelled && (err instanceof WorkerShuttingDownError || deps.isShuttingDown());
}

/** BullMQ will run the job again: a transient error with attempts left, and the job not cancelled. */
function willRetry(run: Run, err: unknown): boolean {
  const cancelled = run.running.controller.signal.aborted;
  return !cancelled && isTransientError(err) && run.job.attemptsMade + 1 < (run.job.opts.attempts ?? 1);
}

/** Run a lifecycle hook: transient errors propagate (the job is retried and the hook runs again), others are logged. */
async function callHook(
  deps: ProcessorDeps,
  jobId: string,
  hook: string,
  call: () => Promise<void>,
): Promise<void> {
  try {
    await call();
  } catch (err) {
    if (isTransientError(err)) throw err;
    deps.logger.warn(
      { jobId, hook, err: err instanceof Error ? err.message : String(err) },
      'job hook failed',
    );
  }
}

async function persist(deps: ProcessorDeps, run: Run, state: OperationState): Promise<void> {
  // After a lost lock, stop without writing: the job's next owner resumes from the last saved state.
  if (run.running.lockLost) throw new LockLostError(run.jobId);
  if (!(await deps.line.update(run.jobId, run.owner, { state: await operationStateJson(state) }))) {
    run.running.lockLost = true;
    throw new LockLostError(run.jobId);
  }
  run.lastState = state;
  if (deps.isShuttingDown()) throw new WorkerShuttingDownError();
}

/** Decide what a runner error means; returns the error for BullMQ. */
async function failedRun(
  deps: ProcessorDeps,
  run: Run,
  err: unknown,
  reporter: SyncReporter | undefined,
): Promise<Error> {
  const error = err instanceof Error ? err : new Error(String(err));
  const cancelled = run.running.controller.signal.aborted;
  if (err instanceof LockLostError || run.running.lockLost) return error;
  if (isHandedOver(deps, run, err)) {
    await deps.line.update(run.jobId, run.owner, { status: 'waiting' });
    await run.job.moveToWait(run.owner);
    return new WaitingError();
  }
  if (willRetry(run, err)) {
    deps.logger.warn(
      { jobId: run.jobId, err: error.message, attempt: run.job.attemptsMade + 1 },
      'transient error; retrying',
    );
    await deps.line.update(run.jobId, run.owner, { status: 'waiting' });
    return error;
  }
  const status = cancelled ? 'cancelled' : 'failed';
  const message = status === 'cancelled' ? 'Operation terminated' : lastErrorMessage(run, error);
  // The engine never reported an end: tell the thread (header, failure line, alerts) before recording it.
  if (reporter) {
    await reporter
      .report(endedOutsideRunner(run.request, run.lastState, message, cancelled))
      .catch((e: unknown) =>
        deps.logger.warn({ jobId: run.jobId, err: String(e) }, 'could not report the end'),
      );
    await reporter.close();
  }
  await endJob(deps, run, status, run.lastState, message);
  return new JobEndedError(message);
}

/** Record the outcome, leave the line, and wake the next job of the application. */
async function endJob(
  deps: ProcessorDeps,
  run: Run,
  status: 'completed' | 'failed' | 'cancelled',
  state: OperationState | undefined,
  message: string,
): Promise<void> {
  const phase =
    state && isCompleted(state.phase) ? state.phase : status === 'completed' ? 'Succeeded' : 'Error';
  const history = historyEntry({
    jobId: run.jobId,
    request: run.request,
    state,
    phase: status === 'cancelled' && phase === 'Succeeded' ? 'Failed' : phase,
    message,
    startedAt: run.record?.startedAt,
    finishedAt: new Date(),
  });
  const application = run.request.application;
  const finished = await deps.line.finish({
    jobId: run.jobId,
    application,
    status,
    message,
    history,
    owner: run.owner,
  });
  if (!finished) throw new LockLostError(run.jobId);
  if (finished.head) await promoteHead(deps.queue, finished.head);
}

/** `reporter` whose close() runs once (the end of a failed run closes it before the job is recorded as ended). */
function closingOnce(reporter: SyncReporter): SyncReporter {
  let closing: Promise<void> | undefined;
  return { report: (event) => reporter.report(event), close: () => (closing ??= reporter.close()) };
}
