import type { ChildProcess } from 'node:child_process';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSyncQueue, type SyncQueue } from '../../src/queue/sync-queue.js';
import {
  deleteKeys,
  jobsFinished,
  REDIS_URL,
  syncRequest,
  testRedis,
  uniquePrefix,
  waitFor,
} from './support/queue-test-env.js';
import { readReported } from './support/recording-reporter.js';
import { readHooks, readRuns } from './support/recording-runner.js';
import { overlaps, startOrder } from './support/run-checks.js';
import { spawnWorkerProcess, stopWorkerProcess, type WorkerProcessEnv } from './support/worker-processes.js';

describe('sync queue across worker processes', () => {
  let prefix: string;
  let redis: Redis;
  let queue: SyncQueue;
  let children: ChildProcess[] = [];

  const spawnWorkers = async (count: number, env: Partial<WorkerProcessEnv>) => {
    const base = { QUEUE_REDIS_URL: REDIS_URL, RECORD_REDIS_URL: REDIS_URL, PREFIX: prefix };
    const started = await Promise.all(
      Array.from({ length: count }, () => spawnWorkerProcess({ ...base, ...env })),
    );
    children.push(...started);
    return started;
  };
  const finished = (jobIds: string[], timeoutMs = 30_000) => jobsFinished(queue, jobIds, timeoutMs);
  /** Once `jobId` reported `event`, the worker process that runs it. */
  const processRunning = async (jobId: string, event: string) => {
    await waitFor(async () => (await readReported(redis, prefix, jobId)).includes(event), 15_000, event);
    const [firstRun] = await readRuns(redis, prefix);
    const owner = children.find((c) => c.pid === firstRun?.pid);
    if (!owner || !firstRun) throw new Error(`no worker process runs ${jobId}`);
    return { owner, pid: firstRun.pid };
  };

  beforeEach(() => {
    prefix = uniquePrefix();
    redis = testRedis();
    queue = createSyncQueue({ connection: { url: REDIS_URL }, prefix });
  });

  afterEach(async () => {
    await Promise.all(children.map((c) => stopWorkerProcess(c, 'SIGKILL')));
    children = [];
    await queue.close();
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  it('runs 50 concurrent requests for 10 applications on 3 processes: no overlap per app, none lost, none twice', async () => {
    await spawnWorkers(3, { STEPS: '1', STEP_MS: '20', CONCURRENCY: '4' });
    const requests = Array.from({ length: 50 }, (_, i) => syncRequest(`app-${i % 10}`));
    const results = await Promise.all(requests.map((r) => queue.enqueueSync(r)));
    expect(new Set(results.map((r) => r.jobId)).size).toBe(50);
    const states = await finished(results.map((r) => r.jobId));

    expect(states.every((s) => s?.state === 'completed')).toBe(true);
    const runs = await readRuns(redis, prefix);
    expect(overlaps(runs)).toEqual([]);
    const starts = runs.filter((r) => r.kind === 'start');
    expect(starts).toHaveLength(50);
    expect(new Set(starts.map((r) => r.jobId)).size).toBe(50);
    expect(new Set(starts.map((r) => r.pid)).size).toBeGreaterThan(1);
    for (const r of results) expect(await readHooks(redis, prefix, r.jobId)).toEqual(['hook-1']);
  });

  it('resumes a sync from its persisted state on another process after kill -9: hooks once, events in order', async () => {
    await spawnWorkers(2, { STEPS: '4', STEP_MS: '700', LOCK_MS: '3000', CONCURRENCY: '2' });
    const crashedRequest = syncRequest('web');
    const crashed = await queue.enqueueSync(crashedRequest);
    const behind = await queue.enqueueSync(syncRequest('web'));
    const { owner, pid } = await processRunning(crashed.jobId, 'HookStarted:2');
    await stopWorkerProcess(owner, 'SIGKILL');

    const [crashedState, behindState] = await finished([crashed.jobId, behind.jobId]);
    expect(crashedState).toMatchObject({ state: 'completed', operationState: { phase: 'Succeeded' } });
    expect(crashedState?.target).toEqual(crashedRequest.target);
    expect(behindState?.state).toBe('completed');
    expect(await readHooks(redis, prefix, crashed.jobId)).toEqual(['hook-1', 'hook-2', 'hook-3', 'hook-4']);
    const runs = await readRuns(redis, prefix);
    expect(overlaps(runs)).toEqual([]);
    expect(startOrder(runs, 'web')).toEqual([crashed.jobId, behind.jobId]);
    const crashedRuns = runs.filter((r) => r.jobId === crashed.jobId);
    expect(crashedRuns.map((r) => [r.kind, r.resumed])).toEqual([
      ['start', false],
      ['start', true],
      ['finish', true],
    ]);
    expect(crashedRuns[1]?.pid).not.toBe(pid);

    const events = await readReported(redis, prefix, crashed.jobId);
    const resumedAt = events.indexOf('OperationStarted:resumed');
    expect(events.slice(0, resumedAt)).toEqual([
      'OperationStarted',
      'WaveStarted:1',
      'HookStarted:1',
      'HookFinished:1',
      'WaveCompleted:1',
      'WaveStarted:2',
      'HookStarted:2',
    ]);
    expect(events.slice(resumedAt)).toEqual([
      'OperationStarted:resumed',
      'WaveStarted:2',
      'HookFinished:2',
      'WaveCompleted:2',
      'WaveStarted:3',
      'HookStarted:3',
      'HookFinished:3',
      'WaveCompleted:3',
      'WaveStarted:4',
      'HookStarted:4',
      'HookFinished:4',
      'WaveCompleted:4',
      'OperationCompleted',
    ]);
  });

  it('cancels a waiting and a running sync from another process', async () => {
    await spawnWorkers(1, { STEPS: '3', STEP_MS: '1500' });
    const running = await queue.enqueueSync(syncRequest('web'));
    const waiting = await queue.enqueueSync(syncRequest('web'));
    const after = await queue.enqueueSync(syncRequest('web'));
    await waitFor(async () => (await queue.jobStatus(running.jobId))?.state === 'active', 15_000, 'running');
    const carol = { userId: 'U3', userName: 'carol' };

    expect(await queue.cancel('web', carol, waiting.jobId)).toEqual({
      cancelled: 'waiting',
      jobId: waiting.jobId,
    });
    expect((await queue.applicationStatus('web')).map((s) => s.jobId)).toEqual([running.jobId, after.jobId]);
    expect(await queue.cancel('web', carol)).toEqual({ cancelled: 'running', jobId: running.jobId });
    expect(await queue.cancel('other-app', carol, after.jobId)).toEqual({ cancelled: 'none' });
    const [runningState, waitingState, afterState] = await finished([
      running.jobId,
      waiting.jobId,
      after.jobId,
    ]);

    expect(runningState).toMatchObject({
      state: 'cancelled',
      operationState: { phase: 'Failed', message: 'Operation terminated' },
    });
    expect(waitingState?.state).toBe('cancelled');
    expect(afterState?.state).toBe('completed');
    const runs = await readRuns(redis, prefix);
    expect(runs.some((r) => r.jobId === waiting.jobId)).toBe(false);
    // Left alone it would run 3 × 1500 ms; ending within 3000 ms of its start means the cancel terminated it.
    expect(runs.find((r) => r.jobId === running.jobId && r.kind === 'finish')!.t - runs[0]!.t).toBeLessThan(
      3000,
    );
    expect(await readHooks(redis, prefix, running.jobId)).toEqual(['hook-1']);
    const history = await queue.history('web');
    expect(history.map((h) => [h.jobId, h.phase, h.message])).toEqual([
      [after.jobId, 'Succeeded', 'successfully synced (all tasks run)'],
      [running.jobId, 'Failed', 'Operation terminated'],
    ]);
    expect(await queue.cancel('web', carol, running.jobId)).toEqual({ cancelled: 'none' });
  });

  it('on SIGTERM hands a running sync over at its next step; another process resumes it at once', async () => {
    // Locks last 30 s here: a resume within the 15 s wait proves the hand-over, not stall recovery.
    await spawnWorkers(2, { STEPS: '3', STEP_MS: '800' });
    const job = await queue.enqueueSync(syncRequest('web'));
    const { owner: first } = await processRunning(job.jobId, 'HookStarted:1');
    const exited = new Promise((resolve) => first.once('exit', (code) => resolve(code)));
    first.kill('SIGTERM');

    expect(await exited).toBe(0);
    const [state] = await finished([job.jobId], 15_000);
    expect(state?.state).toBe('completed');
    expect(await readHooks(redis, prefix, job.jobId)).toEqual(['hook-1', 'hook-2', 'hook-3']);
    const runs = (await readRuns(redis, prefix)).filter((r) => r.jobId === job.jobId);
    expect(runs.map((r) => [r.kind, r.resumed, r.pid === first.pid])).toEqual([
      ['start', false, true],
      ['start', true, false],
      ['finish', true, false],
    ]);
  });
});
