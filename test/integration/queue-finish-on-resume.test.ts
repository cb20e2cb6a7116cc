import { describe, expect, it } from 'vitest';
import { isCompleted, type OperationState } from '../../src/domain/index.js';
import { runOperation } from '../../src/engine/index.js';
import type { JobLifecycle } from '../../src/queue/job-lifecycle.js';
import { recordedOperation } from '../../src/queue/sync-request.js';
import type { SyncRunner } from '../../src/queue/sync-runner.js';
import type { SyncWorker } from '../../src/queue/sync-worker.js';
import { obj, sourced } from '../builders/manifest-builders.js';
import { FakeCluster } from '../fakes/fake-cluster.js';
import { useQueueFixture } from './support/queue-fixture.js';
import { deletionRequest, jobsFinished, syncRequest, waitFor } from './support/queue-test-env.js';
import { readReported } from './support/recording-reporter.js';

// The engine persists a sync's completed OperationState, then assesses the Application's health and persists it
// again with `health`. A worker told to stop in between (its `persist` saves the state, then throws
// WorkerShuttingDownError) hands the job over with a completed state that is not finished: the next worker must
// finish it (health, HealthAssessed) instead of ending the job with it — an App of Apps chain gated on child
// health would otherwise read the child's health as Unknown and stop.
describe('sync worker resuming a completed operation', () => {
  const t = useQueueFixture();

  /** Which persisted state makes the first worker stop: the completed one before its health, or the one with it. */
  type StopAt = 'completed without health' | 'with health';

  /** Runs the engine on `cluster`; the first worker is closed exactly when the state `stopAt` is persisted. */
  function engineRunner(
    cluster: FakeCluster,
    stopAt: StopAt,
    stopping: { worker?: SyncWorker; closed?: Promise<void> },
  ) {
    const runner: SyncRunner = (ctx) =>
      runOperation({
        application: 'web',
        targets: sourced(obj('v1', 'ConfigMap', 'cfg')),
        namespace: 'app',
        revision: 'abc123',
        operation: recordedOperation(ctx.request),
        cluster,
        reporter: ctx.reporter,
        ...(ctx.initialState ? { initialState: ctx.initialState } : {}),
        persist: async (state) => {
          const at = state.health ? 'with health' : 'completed without health';
          if (stopping.worker && isCompleted(state.phase) && at === stopAt) {
            stopping.closed = stopping.worker.close({ graceMs: 10_000 });
            stopping.worker = undefined;
          }
          await ctx.persist(state);
        },
        signal: ctx.signal,
        options: { healthTimeoutMs: 2000, pollIntervalMs: 50 },
      });
    return runner;
  }

  async function stopAndResume(stopAt: StopAt) {
    const cluster = new FakeCluster();
    const stopping: { worker?: SyncWorker; closed?: Promise<void> } = {};
    const ended: OperationState[] = [];
    const lifecycle: JobLifecycle = {
      async ended({ state }) {
        ended.push(state);
      },
    };
    const options = { runner: engineRunner(cluster, stopAt, stopping), lifecycle };
    stopping.worker = t.startWorker({ steps: 0, stepMs: 0 }, options);
    const { jobId } = await t.queue.enqueueSync(syncRequest('web'));
    await waitFor(async () => stopping.closed !== undefined, 10_000, 'the first worker to stop');
    await stopping.closed;
    const firstRun = await readReported(t.redis, t.prefix, jobId);
    t.startWorker({ steps: 0, stepMs: 0 }, options);
    const [status] = await jobsFinished(t.queue, [jobId], 20_000);
    const events = await readReported(t.redis, t.prefix, jobId);
    return { cluster, status, ended, firstRun, events };
  }

  it('when the worker stops after saving the completed state but before the app health, then the next worker assesses the health and ends the job with it', async () => {
    const { cluster, status, ended, firstRun, events } = await stopAndResume('completed without health');

    expect(firstRun).not.toContain('OperationCompleted');
    expect(status).toMatchObject({
      state: 'completed',
      operationState: { phase: 'Succeeded', health: { status: 'Healthy' } },
    });
    expect(ended.map((s) => s.health?.status)).toEqual(['Healthy']);
    // The operation is not run again: the ConfigMap was applied once, and the outcome and health said once each.
    expect(cluster.written()).toEqual(['ConfigMap/cfg']);
    expect(events.filter((e) => e === 'OperationCompleted' || e === 'HealthAssessed')).toEqual([
      'OperationCompleted',
      'HealthAssessed',
    ]);
    expect(events.filter((e) => e.startsWith('OperationStarted'))).toHaveLength(1);
  });

  it('when the worker stops after saving the state with its health, then the next worker ends the job with that state without assessing again', async () => {
    const { cluster, status, ended, firstRun, events } = await stopAndResume('with health');

    expect(firstRun.slice(-2)).toEqual(['OperationCompleted', 'HealthAssessed']);
    expect(status).toMatchObject({
      state: 'completed',
      operationState: { phase: 'Succeeded', health: { status: 'Healthy' } },
    });
    expect(ended.map((s) => s.health?.status)).toEqual(['Healthy']);
    expect(cluster.written()).toEqual(['ConfigMap/cfg']);
    expect(events.filter((e) => e === 'HealthAssessed')).toHaveLength(1);
  });

  it('when a deletion job stops after saving its completed state (deletions have no health step), then the next worker ends the job without running it again', async () => {
    const stopping: { worker?: SyncWorker; closed?: Promise<void> } = {};
    let runs = 0;
    const runner: SyncRunner = async (ctx) => {
      runs += 1;
      const at = new Date().toISOString();
      const state: OperationState = {
        operation: recordedOperation(ctx.request),
        phase: 'Succeeded',
        message: '1 resource deleted in 1 wave',
        syncResult: { revision: '', resources: [] },
        startedAt: at,
        finishedAt: at,
      };
      if (stopping.worker) {
        stopping.closed = stopping.worker.close({ graceMs: 10_000 });
        stopping.worker = undefined;
      }
      await ctx.persist(state);
      return state;
    };
    stopping.worker = t.startWorker({ steps: 0, stepMs: 0 }, { runner });
    const deletion = { confirmed: [], planHash: '0'.repeat(32) };
    const { jobId } = await t.queue.enqueueSync(deletionRequest('web', deletion));
    await waitFor(async () => stopping.closed !== undefined, 10_000, 'the first worker to stop');
    await stopping.closed;
    t.startWorker({ steps: 0, stepMs: 0 }, { runner });

    const [status] = await jobsFinished(t.queue, [jobId], 20_000);
    expect(status).toMatchObject({ state: 'completed', operationState: { phase: 'Succeeded' } });
    expect(status?.operationState?.health).toBeUndefined();
    expect(runs).toBe(1);
    expect(await readReported(t.redis, t.prefix, jobId)).toEqual(['OperationCompleted']);
  });
});
