/**
 * A real step-function SyncRunner for queue tests. Each of `steps` steps "creates a hook" (RPUSH to a Redis
 * list — the thing that must happen exactly once), persists, waits `stepMs` (abortable), and completes.
 * Start/finish of every run is recorded with a global Redis sequence number, so overlap per application is
 * checked exactly, across processes. Behaviour switches travel in `operation.syncOptions`:
 * `test.fail` → the sync fails on its merits at step 1; `test.transient-once` → the first attempt throws a
 * TransientError.
 */
import type { Redis } from 'ioredis';
import type {
  OperationState,
  ResourceResult,
  SyncEvent,
  TaskRef,
  WaveRef,
} from '../../../src/domain/index.js';
import { TransientError } from '../../../src/queue/queue-errors.js';
import { recordedOperation } from '../../../src/queue/sync-request.js';
import type { SyncRunner, SyncRunnerContext } from '../../../src/queue/sync-runner.js';

export interface RunRecord {
  application: string;
  jobId: string;
  kind: 'start' | 'finish';
  seq: number;
  t: number;
  pid: number;
  resumed: boolean;
}

export interface RecordingOptions {
  redis: Redis;
  /** Key prefix for the records (unique per test). */
  base: string;
  steps: number;
  stepMs: number;
}

const now = () => new Date().toISOString();
const waveRef = (i: number, total: number): WaveRef => ({ phase: 'Sync', wave: i, index: i, total });
const task = (i: number): TaskRef => ({
  group: 'batch',
  kind: 'Job',
  namespace: 'default',
  name: `hook-${i}`,
  isHook: true,
  isPrune: false,
});

/** Records written by the runner: all run records, in sequence order. */
export async function readRuns(redis: Redis, base: string): Promise<RunRecord[]> {
  const rows = await redis.lrange(`${base}:runs`, 0, -1);
  return rows.map((r) => JSON.parse(r) as RunRecord).sort((a, b) => a.seq - b.seq);
}

/** Hooks created for a job, in creation order. */
export function readHooks(redis: Redis, base: string, jobId: string): Promise<string[]> {
  return redis.lrange(`${base}:hooks:${jobId}`, 0, -1);
}

export function createRecordingRunner(options: RecordingOptions): SyncRunner {
  const { redis, base, steps, stepMs } = options;
  const record = async (ctx: SyncRunnerContext, kind: RunRecord['kind']) => {
    const seq = await redis.incr(`${base}:clock`);
    const row: RunRecord = {
      application: ctx.request.application,
      jobId: ctx.jobId,
      kind,
      seq,
      t: Date.now(),
      pid: process.pid,
      resumed: ctx.initialState !== undefined,
    };
    await redis.rpush(`${base}:runs`, JSON.stringify(row));
  };
  return async (ctx) => {
    const opts = recordedOperation(ctx.request).syncOptions;
    await record(ctx, 'start');
    if (opts.includes('test.transient-once') && (await redis.incr(`${base}:transient:${ctx.jobId}`)) === 1) {
      await record(ctx, 'finish');
      throw new TransientError('API server unreachable (test)');
    }
    let state: OperationState = ctx.initialState ?? {
      operation: recordedOperation(ctx.request),
      phase: 'Running',
      message: 'Running',
      syncResult: { revision: 'abc123', resources: [] },
      startedAt: now(),
    };
    const waves = Array.from({ length: steps }, (_, k) => ({
      ...waveRef(k + 1, steps),
      tasks: [task(k + 1)],
    }));
    await ctx.reporter.report({
      type: 'OperationStarted',
      at: now(),
      application: ctx.request.application,
      revision: 'abc123',
      operation: recordedOperation(ctx.request),
      waves,
      resumed: ctx.initialState !== undefined,
    });
    for (let i = 1; i <= steps && state.phase === 'Running'; i++) state = await runStep(ctx, state, i);
    if (state.phase === 'Running')
      state = {
        ...state,
        phase: 'Succeeded',
        message: 'successfully synced (all tasks run)',
        finishedAt: now(),
      };
    // Like the engine, a sync's final state carries the Application health it ended with (the worker resumes a
    // completed state without it as unfinished).
    if (!state.health)
      state = { ...state, health: { status: state.phase === 'Succeeded' ? 'Healthy' : 'Degraded' } };
    await ctx.persist(state);
    await record(ctx, 'finish');
    // The worker dies between persisting the final state and reporting it: stop here until the lock is gone.
    if (opts.includes('test.die-after-final') && !ctx.initialState?.finishedAt) {
      // Persisting fails once the lock is gone (the processor's lock-loss check), as the next step would.
      for (let i = 0; i < 100; i++) {
        if (!(await sleep(stepMs, ctx.signal))) break;
        await ctx.persist(state);
      }
      return state;
    }
    const event: SyncEvent = {
      type: 'OperationCompleted',
      at: now(),
      phase: state.phase,
      message: state.message,
      durationMs: 0,
      state,
    };
    await ctx.reporter.report(event);
    return state;
  };

  async function runStep(ctx: SyncRunnerContext, state: OperationState, i: number): Promise<OperationState> {
    const name = `hook-${i}`;
    const existing = state.syncResult.resources.find((r) => r.name === name);
    if (existing?.hookPhase === 'Succeeded') return state;
    const wave = waveRef(i, steps);
    await ctx.reporter.report({ type: 'WaveStarted', at: now(), wave, tasks: [task(i)] });
    let next = state;
    if (!existing) {
      await redis.rpush(`${base}:hooks:${ctx.jobId}`, name);
      next = withHook(state, i, 'Running');
      await ctx.persist(next);
      await ctx.reporter.report({ type: 'HookStarted', at: now(), wave, task: task(i), hookType: 'Sync' });
    }
    if (!(await sleep(stepMs, ctx.signal)))
      return { ...next, phase: 'Failed', message: 'Operation terminated', finishedAt: now() };
    if (recordedOperation(ctx.request).syncOptions.includes('test.fail')) {
      return {
        ...withHook(next, i, 'Failed'),
        phase: 'Failed',
        message: `one or more synchronization tasks completed unsuccessfully (${name})`,
        finishedAt: now(),
      };
    }
    next = withHook(next, i, 'Succeeded');
    await ctx.persist(next);
    await ctx.reporter.report({
      type: 'HookFinished',
      at: now(),
      wave,
      task: task(i),
      hookType: 'Sync',
      hookPhase: 'Succeeded',
      message: 'job completed',
      durationMs: stepMs,
      logTail: [],
    });
    await ctx.reporter.report({
      type: 'WaveCompleted',
      at: now(),
      wave,
      durationMs: stepMs,
      health: [],
      failed: false,
      message: '',
    });
    return next;
  }
}

function withHook(
  state: OperationState,
  i: number,
  hookPhase: 'Running' | 'Succeeded' | 'Failed',
): OperationState {
  const result: ResourceResult = {
    group: 'batch',
    version: 'v1',
    kind: 'Job',
    namespace: 'default',
    name: `hook-${i}`,
    syncPhase: 'Sync',
    wave: i,
    status: 'Synced',
    message: '',
    hookType: 'Sync',
    hookPhase,
  };
  const others = state.syncResult.resources.filter((r) => r.name !== result.name);
  return { ...state, syncResult: { ...state.syncResult, resources: [...others, result] } };
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
