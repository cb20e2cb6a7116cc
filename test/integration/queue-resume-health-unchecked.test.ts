import { describe, expect, it } from 'vitest';
import { type Application, BotError, isCompleted, type OperationState } from '../../src/domain/index.js';
import { ClusterError, runOperation } from '../../src/engine/index.js';
import { TransientError } from '../../src/queue/index.js';
import type { SyncWorker } from '../../src/queue/sync-worker.js';
import { createEngineSyncRunner } from '../../src/sync-run/index.js';
import { obj, sourced } from '../builders/manifest-builders.js';
import { FakeCluster } from '../fakes/fake-cluster.js';
import { type QueueFixture, useQueueFixture } from './support/queue-fixture.js';
import { jobsFinished, syncRequest, waitFor } from './support/queue-test-env.js';
import { readReported } from './support/recording-reporter.js';

// A sync whose completed OperationState was saved before its Application health (its worker stopped in between) is
// resumed for the health step only. Whatever keeps that step from running — the Application gone from the
// registry (a config redeploy), manifests that do not render, a cluster that does not answer until the retries
// are spent — must not change the operation's outcome: the job ends from the saved state (phase, revision,
// resources, message), its health Unknown and why. Before, the runner's start failure replaced it with a fresh
// Error state (revision '', no resources), and the App of Apps `ended` hook saw Error.

const app = {
  name: 'web',
  namespace: 'argocd',
  project: 'default',
  source: { repoURL: '', path: 'web' },
  destination: { server: 'https://kubernetes.default.svc', namespace: 'app' },
  finalizers: [],
  labels: {},
  annotations: {},
  manifest: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'web' } },
  origin: 'web.yaml:1',
} satisfies Application;
const silent = { debug() {}, info() {}, warn() {} };

/** What the resumed job finds broken: set once the first worker has stopped. */
interface Broken {
  application?: boolean;
  render?: boolean;
  cluster?: boolean;
  /** The runner throws a transient error right after saving the completed state. */
  afterSave?: boolean;
}

/** `cluster` whose reads fail with a transient ClusterError while `broken.cluster` (an API server that is down). */
function flakyCluster(cluster: FakeCluster, broken: Broken): FakeCluster {
  const reads = new Set(['get', 'list', 'discover', 'listKinds']);
  return new Proxy(cluster, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (broken.cluster && reads.has(String(prop))) {
        return async () => {
          throw new ClusterError('connect ECONNREFUSED 10.0.0.1:443', { transient: true });
        };
      }
      return value.bind(target);
    },
  });
}

/**
 * Sync the ConfigMap `cfg` of Application web. `when: 'on resume'`: the first worker is closed exactly when the
 * completed state without health is saved, `broken` breaks, and a second worker resumes the job. `when: 'after
 * completion'`: `broken` breaks when that state is saved and the same worker goes on to the health step.
 */
async function syncBrokenAfterCompletion(
  t: QueueFixture,
  broken: Broken,
  when: 'on resume' | 'after completion',
) {
  const cluster = new FakeCluster();
  const stopping: { worker?: SyncWorker; closed?: Promise<void> } = {};
  const failing: Broken = {};
  const ended: OperationState[] = [];
  let saved: OperationState | undefined;
  const runner = createEngineSyncRunner<ReturnType<typeof sourced>[number], FakeCluster>({
    application: () => {
      if (failing.application) throw new BotError('application_not_found', 'Application web not found');
      return app;
    },
    render: async () => {
      if (failing.render) throw new TransientError('git fetch: connection reset by peer');
      return { targets: sourced(obj('v1', 'ConfigMap', 'cfg')), revision: 'abc123' };
    },
    clusterFor: () => flakyCluster(cluster, failing),
    runOperation: (input) =>
      runOperation({
        ...input,
        persist: async (s) => {
          if (isCompleted(s.phase) && !s.health && !saved) {
            saved = s;
            if (when === 'after completion') Object.assign(failing, broken);
            stopping.closed = stopping.worker?.close({ graceMs: 10_000 });
            stopping.worker = undefined;
          }
          await input.persist!(s);
          if (s === saved && failing.afterSave) throw new TransientError('watch: connection reset by peer');
        },
        options: { healthTimeoutMs: 2000, pollIntervalMs: 50 },
      }),
    logger: () => silent,
  });
  const options = {
    runner,
    lifecycle: {
      async ended({ state }: { state: OperationState }) {
        ended.push(state);
      },
    },
  };
  const first = t.startWorker({ steps: 0, stepMs: 0 }, options);
  if (when === 'on resume') stopping.worker = first;
  const { jobId } = await t.queue.enqueueSync(syncRequest('web'));
  if (when === 'on resume') {
    await waitFor(async () => stopping.closed !== undefined, 10_000, 'the first worker to stop');
    await stopping.closed;
    Object.assign(failing, broken);
    t.startWorker({ steps: 0, stepMs: 0 }, options);
  }
  const [status] = await jobsFinished(t.queue, [jobId], 20_000);
  const events = await readReported(t.redis, t.prefix, jobId);
  const [history] = await t.queue.history('web', 1);
  return { cluster, saved, status, ended, events, history };
}

/** The job ended from the saved state: same outcome, health Unknown saying why, recorded and announced once. */
function expectEndedFromSaved(run: Awaited<ReturnType<typeof syncBrokenAfterCompletion>>, why: string) {
  const { cluster, saved, status, ended, events, history } = run;
  expect(saved).toMatchObject({ phase: 'Succeeded', syncResult: { revision: 'abc123' } });
  expect(saved?.health).toBeUndefined();
  const health = { status: 'Unknown', message: why };
  expect(status).toMatchObject({
    state: 'completed',
    operationState: {
      phase: 'Succeeded',
      message: saved?.message,
      syncResult: { revision: 'abc123', resources: saved?.syncResult.resources },
      health,
    },
  });
  expect(ended.map((s) => [s.phase, s.syncResult.revision, s.health])).toEqual([
    ['Succeeded', 'abc123', health],
  ]);
  expect(history).toMatchObject({ phase: 'Succeeded', revision: 'abc123' });
  // The operation is not run again: the ConfigMap was applied once; its outcome and health said once each.
  expect(cluster.written()).toEqual(['ConfigMap/cfg']);
  expect(events.filter((e) => e.startsWith('OperationStarted'))).toHaveLength(1);
  expect(events.filter((e) => e === 'HealthAssessed')).toHaveLength(1);
}

describe('sync worker resuming a completed operation it cannot assess the health of', () => {
  const t = useQueueFixture({ attempts: 2, backoffMs: 50 });
  const stopThenResume = (broken: Broken) => syncBrokenAfterCompletion(t, broken, 'on resume');

  it('when the Application is gone from the registry on resume, then the job ends Succeeded from the saved state with health Unknown', async () => {
    const run = await stopThenResume({ application: true });

    expectEndedFromSaved(run, 'health not checked after resume: Application web not found');
    expect(run.events.filter((e) => e === 'OperationCompleted')).toHaveLength(1);
  });

  it('when the manifests fail to render transiently on every attempt of the resume, then the job ends Succeeded from the saved state, not "gave up" Error', async () => {
    const run = await stopThenResume({ render: true });

    expectEndedFromSaved(
      run,
      'health not checked after resume: git fetch: connection reset by peer (gave up after 2 attempts)',
    );
  });

  it('when the cluster fails transiently during the resumed health watch until the retries are spent, then the job ends Succeeded from the saved state', async () => {
    const run = await stopThenResume({ cluster: true });

    expectEndedFromSaved(
      run,
      'health not checked after resume: connect ECONNREFUSED 10.0.0.1:443 (gave up after 2 attempts)',
    );
  });
});

describe("sync worker whose operation completed in the job's last attempt", () => {
  const t = useQueueFixture({ attempts: 1 });

  it('when the runner fails transiently right after saving the completed state and no attempt is left, then the job ends Succeeded from the saved state, not Error', async () => {
    const run = await syncBrokenAfterCompletion(t, { afterSave: true }, 'after completion');

    expectEndedFromSaved(run, 'health not checked: watch: connection reset by peer');
  });
});
