/**
 * deleteApplication over real @kubernetes/client-node against the simulator: the bounded wait for terminating
 * objects (and its message), `Delete=confirm` objects covered or not by the confirmation, and termination.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import { planDeletion, planHash } from '../../../src/deletion/application-deletion.js';
import { deleteApplication } from '../../../src/deletion/delete-application.js';
import { deletionHooksOf } from '../../../src/deletion/deletion-hooks.js';
import type { Application, KubeObject, SyncEvent } from '../../../src/domain/index.js';
import { createKubeCluster } from '../../../src/kube/kube-cluster.js';
import { installApplicationCrd } from '../../support/application-crd.js';

let sim: Simulator;
let cluster: ReturnType<typeof createKubeCluster>;

beforeAll(async () => {
  sim = await startSimulator({ speed: 20 });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig({ namespace: 'default' }));
  cluster = createKubeCluster(kc, { watchTimeoutSeconds: 2 });
});

afterAll(async () => {
  await sim.stop();
});

function app(name: string): Application {
  return {
    name,
    namespace: 'argocd',
    project: 'default',
    source: { repoURL: '' },
    destination: { namespace: 'default' },
    finalizers: ['resources-finalizer.argocd.argoproj.io'],
    labels: {},
    annotations: {},
    manifest: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name } },
    origin: 'test',
  };
}

async function configMap(appName: string, name: string, meta: Partial<KubeObject['metadata']> = {}) {
  const obj: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace: 'default',
      labels: { 'app.kubernetes.io/instance': appName },
      ...meta,
    },
    data: { k: 'v' },
  };
  await cluster.apply(obj, { dryRun: false, force: true });
}

const ref = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name });

function hookJob(name: string, hook: string, command: string, policy?: string): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      annotations: {
        'argocd.argoproj.io/hook': hook,
        ...(policy ? { 'argocd.argoproj.io/hook-delete-policy': policy } : {}),
      },
    },
    spec: {
      backoffLimit: 0,
      template: {
        spec: {
          restartPolicy: 'Never',
          containers: [{ name: 'run', image: 'busybox', command: ['sh', '-c', command] }],
        },
      },
    },
  };
}

function run(
  application: Application,
  options: {
    confirmed?: string[];
    timeoutMs?: number;
    signal?: AbortSignal;
    hooks?: { preDelete: KubeObject[]; postDelete: KubeObject[] };
    planHash?: string;
  } = {},
) {
  const events: SyncEvent[] = [];
  const states: string[] = [];
  const result = deleteApplication({
    app: application,
    cascade: undefined,
    confirmed: options.confirmed ?? [],
    ...(options.planHash ? { planHash: options.planHash } : {}),
    operation: { prune: false, dryRun: false, syncOptions: [] },
    cluster,
    reporter: { report: async (e) => void events.push(e) },
    persist: async (s) => void states.push(s.phase),
    ...(options.signal ? { signal: options.signal } : {}),
    timeoutMs: options.timeoutMs ?? 10_000,
    relistMs: 200,
    ...(options.hooks
      ? {
          hooks: async () =>
            deletionHooksOf([...options.hooks!.preDelete, ...options.hooks!.postDelete], 'default'),
        }
      : {}),
  });
  return { result, events, states };
}

describe('deleteApplication against the simulator', () => {
  it('gives up after the timeout naming what is still terminating, and does not remove the Application', async () => {
    await configMap('held', 'held', { finalizers: ['example.com/hold'] });
    await configMap('held', 'early', { annotations: { 'argocd.argoproj.io/sync-wave': '-1' } });

    const started = Date.now();
    const { result, states } = run(app('held'), { timeoutMs: 1500 });
    const state = await result;

    expect(state.phase).toBe('Failed');
    expect(state.message).toContain('Timed out after 2s waiting for ConfigMap/held to finish terminating');
    expect(Date.now() - started).toBeLessThan(8000);
    expect(await cluster.get(ref('early'))).toBeDefined(); // the next wave never started
    expect(states.at(-1)).toBe('Failed');
    await cluster.removeFinalizer(ref('held'), 'example.com/hold');
  });

  it('deletes a Delete=confirm object only when the confirmation covered it', async () => {
    const confirm = { annotations: { 'argocd.argoproj.io/sync-options': 'Delete=confirm' } };
    await configMap('careful', 'data', confirm);

    const refused = await run(app('careful')).result;
    expect(refused.phase).toBe('Failed');
    expect(refused.message).toContain('ConfigMap/data has Delete=confirm and was not in the confirmed plan');
    expect(await cluster.get(ref('data'))).toBeDefined();

    const { result, events } = run(app('careful'), { confirmed: ['/ConfigMap/default/data'] });
    expect((await result).phase).toBe('Succeeded');
    expect(await cluster.get(ref('data'))).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual(['OperationStarted', 'ResourcesDeleted', 'OperationCompleted']);
  });

  it('stops between steps when aborted (Operation terminated)', async () => {
    await configMap('stopped', 'stuck', { finalizers: ['example.com/hold'] });
    const controller = new AbortController();

    const { result } = run(app('stopped'), { signal: controller.signal, timeoutMs: 30_000 });
    setTimeout(() => controller.abort(), 300);
    const state = await result;

    expect(state).toMatchObject({ phase: 'Failed', message: 'Operation terminated' });
    await cluster.removeFinalizer(ref('stuck'), 'example.com/hold');
  });

  it('runs PreDelete hooks before any resource goes and PostDelete hooks after, honouring HookSucceeded', async () => {
    await configMap('hooked', 'cfg');
    const pre = hookJob('backup', 'PreDelete', 'echo backing up; sleep 2', 'HookSucceeded');
    const post = hookJob('notify', 'PostDelete', 'echo done');

    const { result, events } = run(app('hooked'), { hooks: { preDelete: [pre], postDelete: [post] } });
    const state = await result;

    expect(state.phase).toBe('Succeeded');
    const story = events.map((e) =>
      e.type === 'DeletionHookFinished'
        ? `${e.hookType} ${e.task.name} ${e.hookPhase}`
        : e.type === 'ResourcesDeleted'
          ? `deleted ${e.resources.map((r) => r.name).join(',')}`
          : e.type,
    );
    expect(story).toEqual([
      'OperationStarted',
      'PreDelete backup Succeeded',
      'deleted cfg',
      'PostDelete notify Succeeded',
      'OperationCompleted',
    ]);
    const jobs = (name: string) => ({ apiVersion: 'batch/v1', kind: 'Job', namespace: 'default', name });
    expect(await cluster.get(jobs('backup'))).toBeUndefined(); // HookSucceeded
    expect((await cluster.get(jobs('notify')))?.metadata.annotations).toMatchObject({
      'argocd.argoproj.io/tracking-id': 'hooked:batch/Job:default/notify',
    }); // BeforeHookCreation (the default) leaves it until the next run
    expect(await cluster.get(ref('cfg'))).toBeUndefined();
  });

  it('a failing PreDelete hook stops the deletion before anything is deleted', async () => {
    await configMap('prefail', 'precious');
    const pre = hookJob('check', 'PreDelete', 'echo refusing; exit 3');

    const state = await run(app('prefail'), { hooks: { preDelete: [pre], postDelete: [] } }).result;

    expect(state.phase).toBe('Failed');
    expect(state.message).toMatch(/^PreDelete hook Job\/check failed: .*; nothing was deleted\.$/);
    expect(await cluster.get(ref('precious'))).toBeDefined();
  });

  it('an unconfirmed Delete=confirm object stops the deletion before a PreDelete hook is created', async () => {
    const confirm = { annotations: { 'argocd.argoproj.io/sync-options': 'Delete=confirm' } };
    await configMap('unshown', 'plain');
    await configMap('unshown', 'hidden', confirm);
    const pre = hookJob('unshown-backup', 'PreDelete', 'echo backing up');

    const { result, events } = run(app('unshown'), { hooks: { preDelete: [pre], postDelete: [] } });
    const state = await result;

    expect(state.phase).toBe('Failed');
    expect(state.message).toContain('ConfigMap/hidden has Delete=confirm and was not in the confirmed plan');
    expect(events.map((e) => e.type)).toEqual(['OperationCompleted']);
    const job = { apiVersion: 'batch/v1', kind: 'Job', namespace: 'default', name: 'unshown-backup' };
    expect(await cluster.get(job)).toBeUndefined();
    expect(await cluster.get(ref('plain'))).toBeDefined();
  });

  it('runs only the confirmed plan: another plan hash ends it with Error before anything is deleted', async () => {
    await configMap('replanned', 'first');
    const live = (name: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'default', labels: { 'app.kubernetes.io/instance': 'replanned' } },
    });
    const confirmedHash = planHash(planDeletion(app('replanned'), [live('first')]));
    await configMap('replanned', 'second'); // the cluster changes after the confirmation

    const changed = await run(app('replanned'), { planHash: confirmedHash }).result;
    expect(changed.phase).toBe('Error');
    expect(changed.message).toBe(
      'The cluster changed since the plan was confirmed (it would now delete ConfigMap/first, ConfigMap/second); nothing was deleted. Run /sync delete replanned again to see the new plan.',
    );
    expect(await cluster.get(ref('first'))).toBeDefined();
    expect(await cluster.get(ref('second'))).toBeDefined();

    const current = planHash(planDeletion(app('replanned'), [live('first'), live('second')]));
    const same = await run(app('replanned'), { planHash: current }).result;
    expect(same.phase).toBe('Succeeded');
    expect(await cluster.get(ref('second'))).toBeUndefined();
  });
});

describe('deleteApplication of an App of Apps parent', () => {
  it('finalizes a child Application with a resources finalizer (its resources, then its object) instead of leaving it Terminating', async () => {
    await installApplicationCrd(cluster, sim);
    sim.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'argocd' } });
    const childRef = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      namespace: 'argocd',
      name: 'kid',
    };
    await cluster.apply(
      {
        apiVersion: 'argoproj.io/v1alpha1',
        kind: 'Application',
        metadata: {
          name: 'kid',
          namespace: 'argocd',
          labels: { 'app.kubernetes.io/instance': 'parent' },
          finalizers: ['resources-finalizer.argocd.argoproj.io'],
        },
        spec: { source: { repoURL: '', path: 'kid' }, destination: { namespace: 'default' } },
      },
      { dryRun: false, force: true },
    );
    await configMap('kid', 'kid-settings');
    await configMap('parent', 'parent-settings');

    const state = await deleteApplication({
      app: app('parent'),
      cascade: undefined,
      confirmed: [],
      operation: { prune: false, dryRun: false, syncOptions: [] },
      cluster,
      reporter: { report: async () => {} },
      timeoutMs: 20_000,
      relistMs: 200,
    });

    expect(state.phase).toBe('Succeeded');
    expect(await cluster.get(ref('kid-settings'))).toBeUndefined();
    expect(await cluster.get(ref('parent-settings'))).toBeUndefined();
    expect(await cluster.get(childRef)).toBeUndefined();
  });
});
