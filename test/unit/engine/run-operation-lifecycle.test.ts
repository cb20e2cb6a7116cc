import { describe, expect, it } from 'vitest';
import {
  type KubeObject,
  type OperationState,
  type SyncEvent,
  TRACKING_LABEL,
} from '../../../src/domain/index.js';
import { refOf } from '../../../src/engine/cluster.js';
import { type RunOperationInput, runOperation } from '../../../src/engine/run/run-operation.js';
import { HOOK, obj, SYNC_OPTIONS, sourced, WAVE } from '../../builders/manifest-builders.js';
import { FakeCluster } from '../../fakes/fake-cluster.js';

function input(
  cluster: FakeCluster,
  targets: KubeObject[],
  extra: Partial<RunOperationInput> = {},
): RunOperationInput {
  return {
    application: 'shop',
    targets: sourced(...targets),
    namespace: 'app',
    revision: 'abcdef123',
    operation: { prune: true, dryRun: false, syncOptions: [] },
    cluster,
    reporter: { report: async () => {} },
    options: { healthTimeoutMs: 100, pollIntervalMs: 20 },
    ...extra,
  };
}

function live(
  kind: string,
  name: string,
  wave: string,
  annotations: Record<string, string> = {},
): KubeObject {
  const apiVersion = kind === 'Deployment' ? 'apps/v1' : 'v1';
  const o = obj(apiVersion, kind, name, { [WAVE]: wave, ...annotations }, { namespace: 'app' });
  o.metadata.labels = { [TRACKING_LABEL]: 'shop' };
  return o;
}

async function seed(cluster: FakeCluster, objects: KubeObject[]) {
  for (const o of objects) await cluster.apply(o, { dryRun: false });
  cluster.log.length = 0;
}

describe('runOperation prune, resume, terminate and timeouts', () => {
  it('Ex 5: prunes in reverse wave order, each wave after the previous one is gone', async () => {
    const cluster = new FakeCluster();
    await seed(cluster, [
      live('ConfigMap', 'a', '0'),
      live('Deployment', 'b', '1'),
      live('Service', 'c', '2'),
    ]);
    cluster.onWrite = (o) =>
      setTimeout(
        () =>
          cluster.update(refOf(o), (d) => {
            d.status = { observedGeneration: o.metadata.generation };
          }),
        5,
      );
    const deployment = obj('apps/v1', 'Deployment', 'd', { [WAVE]: '1' });
    const state = await runOperation(input(cluster, [deployment]));

    expect(cluster.log.filter((w) => w.verb !== 'dryRun').map((w) => `${w.verb} ${w.name}`)).toEqual([
      'delete c',
      'delete b',
      'apply d',
      'delete a',
    ]);
    expect(state.phase).toBe('Succeeded');
    expect(state.syncResult.resources.map((r) => [r.name, r.wave, r.status])).toEqual([
      ['c', 0, 'Pruned'],
      ['b', 1, 'Pruned'],
      ['d', 1, 'Synced'],
      ['a', 2, 'Pruned'],
    ]);
  });

  it('keeps Prune=false objects and skips every prune without the prune flag', async () => {
    const cluster = new FakeCluster();
    await seed(cluster, [
      live('ConfigMap', 'keep', '0', { [SYNC_OPTIONS]: 'Prune=false' }),
      live('ConfigMap', 'old', '0'),
    ]);
    const state = await runOperation(input(cluster, [obj('v1', 'ConfigMap', 'new')]));
    const messages = Object.fromEntries(state.syncResult.resources.map((r) => [r.name, r.message]));
    expect(messages.keep).toBe('ignored (no prune)');
    expect(messages.old).toBe('pruned');

    const noPrune = await runOperation(
      input(cluster, [obj('v1', 'ConfigMap', 'new')], {
        operation: { prune: false, dryRun: false, syncOptions: [] },
      }),
    );
    expect(noPrune.syncResult.resources.find((r) => r.name === 'keep')?.message).toBe(
      'ignored (requires pruning)',
    );
    expect(noPrune.phase).toBe('Succeeded');
  });

  it('resumes from a persisted state without creating a hook twice', async () => {
    const cluster = new FakeCluster();
    const states: OperationState[] = [];
    const jobRef = { apiVersion: 'batch/v1', kind: 'Job', namespace: 'app', name: 'migrate' };
    const hook = obj('batch/v1', 'Job', 'migrate', { [HOOK]: 'PreSync' }, { spec: {} });
    const targets = [
      obj('v1', 'ConfigMap', 'cfg', { [HOOK]: 'PreSync', [WAVE]: '-1' }),
      hook,
      obj('v1', 'ConfigMap', 'web'),
    ];
    // The first process "dies" in the pass that created the hook, before it could persist that pass.
    const crashed = runOperation(
      input(cluster, targets, {
        persist: async (s) => {
          if (await cluster.get(jobRef)) throw new Error('SIGKILL');
          states.push(s);
        },
      }),
    );
    await expect(crashed).rejects.toThrow('SIGKILL');
    expect(states.at(-1)?.syncResult.resources.map((r) => [r.name, r.hookPhase])).toEqual([
      ['cfg', 'Running'],
    ]);
    cluster.onWrite = (o) => {
      if (o.kind === 'Job') throw new Error('hook created twice');
    };
    setTimeout(
      () =>
        cluster.update(jobRef, (j) => {
          j.status = { conditions: [{ type: 'Complete', status: 'True' }] };
        }),
      30,
    );
    const resumed = await runOperation(input(cluster, targets, { initialState: states.at(-1) }));

    expect(resumed.phase).toBe('Succeeded');
    expect(
      cluster.log.filter((w) => w.verb === 'create' || (w.verb === 'apply' && w.kind === 'Job')),
    ).toHaveLength(1);
    expect(cluster.log.filter((w) => w.verb === 'delete')).toEqual([]);
  });

  it('resumed from a completed state saved before the app health: only the health is assessed, nothing is applied again', async () => {
    const cluster = new FakeCluster();
    const targets = [obj('v1', 'ConfigMap', 'web')];
    const states: OperationState[] = [];
    await runOperation(input(cluster, targets, { persist: async (s) => void states.push(s) }));
    const completed = states.find((s) => s.phase === 'Succeeded' && !s.health);
    expect(completed).toBeDefined();
    cluster.log.length = 0;
    const events: SyncEvent[] = [];
    const persisted: OperationState[] = [];
    const resumed = await runOperation(
      input(cluster, targets, {
        initialState: completed!,
        reporter: { report: async (e) => void events.push(e) },
        persist: async (s) => void persisted.push(s),
      }),
    );

    expect(resumed).toEqual({ ...completed, health: { status: 'Healthy' } });
    expect(persisted).toEqual([resumed]);
    expect(events.map((e) => e.type)).toEqual(['OperationCompleted', 'HealthAssessed']);
    expect(cluster.log).toEqual([]);
  });

  it('resumed from a state that already has its health: returned as it is, the outcome said again, no health check', async () => {
    const cluster = new FakeCluster();
    const targets = [obj('v1', 'ConfigMap', 'web')];
    const finished = await runOperation(input(cluster, targets));
    cluster.log.length = 0;
    const events: SyncEvent[] = [];
    const persisted: OperationState[] = [];
    const resumed = await runOperation(
      input(cluster, targets, {
        initialState: finished,
        reporter: { report: async (e) => void events.push(e) },
        persist: async (s) => void persisted.push(s),
      }),
    );

    expect(resumed).toEqual(finished);
    expect(persisted).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['OperationCompleted']);
    expect(cluster.log).toEqual([]);
  });

  it('terminates on abort: running hook deleted, Failed "Operation terminated", no SyncFail hook', async () => {
    const cluster = new FakeCluster();
    const abort = new AbortController();
    const events: SyncEvent[] = [];
    setTimeout(() => abort.abort(), 60);
    const state = await runOperation(
      input(
        cluster,
        [
          obj('batch/v1', 'Job', 'forever', { [HOOK]: 'PreSync' }),
          obj('batch/v1', 'Job', 'notify', { [HOOK]: 'SyncFail' }),
        ],
        { signal: abort.signal, reporter: { report: async (e) => void events.push(e) } },
      ),
    );

    expect(state.phase).toBe('Failed');
    expect(state.message).toBe('Operation terminated');
    expect(cluster.written()).toEqual(['Job/forever']);
    expect(cluster.written('delete')).toEqual(['Job/forever']);
    expect(events.map((e) => e.type)).not.toContain('SyncFailStarted');
    expect(state.syncResult.resources[0]?.hookPhase).toBe('Failed');
  });

  it.each([
    ['the dry run', true],
    ['the applies', false],
  ])(
    'a cancel during %s of a 200-object wave starts no new request and terminates the operation',
    async (_, inDryRun) => {
      const cluster = new FakeCluster();
      const abort = new AbortController();
      const apply = cluster.apply.bind(cluster);
      let calls = 0;
      cluster.apply = async (o, options) => {
        if (options.dryRun === inDryRun && ++calls === 5) abort.abort('cancelled');
        return apply(o, options);
      };
      const targets = Array.from({ length: 200 }, (_, i) => obj('v1', 'ConfigMap', `cm-${i}`, {}));

      const state = await runOperation(
        input(cluster, targets, {
          signal: abort.signal,
          options: { applyConcurrency: 2, healthTimeoutMs: 10 },
        }),
      );

      expect(state.phase).toBe('Failed');
      expect(state.message).toBe('Operation terminated');
      expect(calls).toBeLessThanOrEqual(6); // the 5th and the one in flight beside it
      expect(cluster.written().length).toBe(inDryRun ? 0 : calls);
    },
  );

  it('ends an operation that waits too long, naming what it waited for', async () => {
    const cluster = new FakeCluster();
    const state = await runOperation(
      input(
        cluster,
        [
          obj('apps/v1', 'Deployment', 'web', { [WAVE]: '0' }),
          obj('v1', 'ConfigMap', 'next', { [WAVE]: '1' }),
        ],
        {
          options: { operationTimeoutMs: 150, pollIntervalMs: 20, healthTimeoutMs: 10 },
        },
      ),
    );

    expect(state.phase).toBe('Failed');
    expect(state.message).toMatch(
      /^Operation terminated: timed out after 0\.1s waiting for apps\/Deployment\/web/,
    );
    expect(cluster.written()).toEqual(['Deployment/web']);
  });

  it('a wave cut short by a terminate is announced failed with the reason, never "completed"', async () => {
    const cluster = new FakeCluster();
    const abort = new AbortController();
    const events: SyncEvent[] = [];
    setTimeout(() => abort.abort(), 80);
    await runOperation(
      input(
        cluster,
        [
          obj('apps/v1', 'Deployment', 'web', { [WAVE]: '0' }),
          obj('v1', 'ConfigMap', 'next', { [WAVE]: '1' }),
        ],
        {
          signal: abort.signal,
          reporter: { report: async (e) => void events.push(e) },
          options: { pollIntervalMs: 20, healthTimeoutMs: 10 },
        },
      ),
    );

    const completed = events.flatMap((e) => (e.type === 'WaveCompleted' ? [e] : []));
    expect(completed.map((e) => [e.wave.wave, e.failed, e.message])).toEqual([
      [0, true, 'Operation terminated'],
    ]);
  });

  it('fails a hook whose Pod cannot start after the grace period, naming the missing ConfigMap', async () => {
    const cluster = new FakeCluster();
    cluster.onWrite = (o) => {
      if (o.kind !== 'Job') return;
      const pod = obj('v1', 'Pod', `${o.metadata.name}-x1`, {}, { namespace: 'app' });
      pod.metadata.ownerReferences = [
        { apiVersion: 'batch/v1', kind: 'Job', name: o.metadata.name!, uid: o.metadata.uid! },
      ];
      void cluster.apply(pod, { dryRun: false }).then((p) =>
        cluster.update(refOf(p), (x) => {
          x.status = {
            phase: 'Pending',
            containerStatuses: [
              {
                name: 'migrate',
                state: {
                  waiting: {
                    reason: 'CreateContainerConfigError',
                    message: 'configmap "rails-env" not found',
                  },
                },
              },
            ],
          };
        }),
      );
      setTimeout(
        () =>
          cluster.update(refOf(o), (j) => {
            j.status = { active: 1 };
          }),
        5,
      );
    };
    const state = await runOperation(
      input(
        cluster,
        [obj('batch/v1', 'Job', 'db-migrate', { [HOOK]: 'PreSync' }), obj('v1', 'ConfigMap', 'rails-env')],
        {
          options: { hookStartGraceMs: 50, pollIntervalMs: 20, healthTimeoutMs: 10 },
        },
      ),
    );

    expect(state.phase).toBe('Failed');
    expect(state.message).toContain('CreateContainerConfigError: configmap "rails-env" not found');
    expect(state.syncResult.resources[0]?.logTail).toEqual(['log line']);
    expect(cluster.written()).not.toContain('ConfigMap/rails-env');
  });
});
