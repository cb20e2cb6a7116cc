/**
 * Realistic SyncEvent sequences, as the worker's engine emits them, for driving the SlackReporter in tests and
 * the demo. `prePostSyncEvents` follows argocd-example-apps/pre-post-sync (PreSync Job → Sync Service +
 * Deployment → PostSync Job; shared/fixtures/README.md); `manyWavesEvents` is a synthetic N-wave stream.
 */
import type {
  OperationPhase,
  OperationState,
  ResourceResult,
  SyncEvent,
  SyncPhase,
  TaskRef,
  WaveRef,
} from '../../src/domain/index.js';
import type { SyncReporter } from '../../src/queue/sync-reporter.js';

/** The streams' start: the real now (a fixed calendar time must not reach Slack timestamps or Redis), to the minute. */
const T0 = Math.floor(Date.now() / 60_000) * 60_000;
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const ref = (kind: string, name: string, isHook = false, group = ''): TaskRef => ({
  group,
  kind,
  namespace: 'guestbook',
  name,
  isHook,
  isPrune: false,
});

const before = ref('Job', 'pre-post-sync-before', true, 'batch');
const service = ref('Service', 'pre-post-sync-kustomize-guestbook-ui');
const deployment = ref('Deployment', 'pre-post-sync-kustomize-guestbook-ui', false, 'apps');
const after = ref('Job', 'pre-post-sync-after', true, 'batch');
const REVISION = '3f9c2e1aa0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5';

function state(phase: OperationPhase, message: string, results: ResourceResult[]): OperationState {
  return {
    operation: { prune: false, dryRun: false, syncOptions: [] },
    phase,
    message,
    startedAt: at(0),
    syncResult: { revision: REVISION, resources: results },
  };
}

function result(t: TaskRef, syncPhase: SyncPhase, hook: boolean, hookPhase?: OperationPhase): ResourceResult {
  return {
    group: t.group,
    version: 'v1',
    kind: t.kind,
    namespace: t.namespace,
    name: t.name,
    syncPhase,
    wave: 0,
    status: 'Synced',
    message: '',
    ...(hook ? { hookType: syncPhase as 'PreSync', hookPhase: hookPhase ?? 'Succeeded' } : {}),
  };
}

/** pre-post-sync: Succeeded and Healthy after 42 s, or (failPreSync) the PreSync Job fails with a log tail. */
export function prePostSyncEvents(options: { failPreSync?: boolean } = {}): SyncEvent[] {
  const w1: WaveRef = { phase: 'PreSync', wave: 0, index: 1, total: 3 };
  const w2: WaveRef = { phase: 'Sync', wave: 0, index: 2, total: 3 };
  const w3: WaveRef = { phase: 'PostSync', wave: 0, index: 3, total: 3 };
  const head: SyncEvent[] = [
    {
      type: 'OperationStarted',
      at: at(0),
      application: 'guestbook',
      revision: REVISION,
      operation: { prune: false, dryRun: false, syncOptions: [] },
      resumed: false,
      waves: [
        { ...w1, tasks: [before] },
        { ...w2, tasks: [service, deployment] },
        { ...w3, tasks: [after] },
      ],
    },
    { type: 'WaveStarted', at: at(0.1), wave: w1, tasks: [before] },
    { type: 'HookStarted', at: at(0.2), wave: w1, task: before, hookType: 'PreSync' },
  ];
  if (options.failPreSync) {
    const logTail = [
      '== 20261129 AddIndexToOrders: migrating ====',
      'rake aborted!',
      'PG::UndefinedTable: ERROR:  relation "orders" does not exist',
    ];
    const message = 'Job has reached the specified backoff limit';
    return [
      ...head,
      {
        type: 'HookFinished',
        at: at(12),
        wave: w1,
        task: before,
        hookType: 'PreSync',
        hookPhase: 'Failed',
        message,
        durationMs: 11_800,
        logTail,
      },
      {
        type: 'WaveCompleted',
        at: at(12.1),
        wave: w1,
        durationMs: 12_000,
        health: [],
        failed: true,
        message: `PreSync hook Job/pre-post-sync-before failed: ${message}`,
      },
      {
        type: 'OperationCompleted',
        at: at(12.2),
        phase: 'Failed',
        message: `one or more synchronization tasks completed unsuccessfully, reason: ${message}`,
        durationMs: 12_200,
        state: state('Failed', 'one or more synchronization tasks completed unsuccessfully', [
          result(before, 'PreSync', true, 'Failed'),
        ]),
      },
    ];
  }
  return [
    ...head,
    {
      type: 'HookFinished',
      at: at(10),
      wave: w1,
      task: before,
      hookType: 'PreSync',
      hookPhase: 'Succeeded',
      message: 'Reached expected number of succeeded pods',
      durationMs: 9_800,
      logTail: ['before'],
    },
    {
      type: 'WaveCompleted',
      at: at(10.1),
      wave: w1,
      durationMs: 10_000,
      health: [],
      failed: false,
      message: '',
    },
    { type: 'WaveStarted', at: at(10.2), wave: w2, tasks: [service, deployment] },
    {
      type: 'ResourceApplied',
      at: at(10.3),
      wave: w2,
      task: service,
      status: 'Synced',
      message: 'service/pre-post-sync-kustomize-guestbook-ui created',
    },
    {
      type: 'ResourceApplied',
      at: at(10.4),
      wave: w2,
      task: deployment,
      status: 'Synced',
      message: 'deployment.apps/pre-post-sync-kustomize-guestbook-ui created',
    },
    {
      type: 'WaveCompleted',
      at: at(28),
      wave: w2,
      durationMs: 17_800,
      failed: false,
      message: '',
      health: [
        { task: service, health: { status: 'Healthy' } },
        { task: deployment, health: { status: 'Healthy' } },
      ],
    },
    { type: 'WaveStarted', at: at(28.1), wave: w3, tasks: [after] },
    { type: 'HookStarted', at: at(28.2), wave: w3, task: after, hookType: 'PostSync' },
    {
      type: 'HookFinished',
      at: at(32),
      wave: w3,
      task: after,
      hookType: 'PostSync',
      hookPhase: 'Succeeded',
      message: '',
      durationMs: 3_800,
      logTail: ['after'],
    },
    {
      type: 'WaveCompleted',
      at: at(32.1),
      wave: w3,
      durationMs: 4_000,
      health: [],
      failed: false,
      message: '',
    },
    {
      type: 'OperationCompleted',
      at: at(32.2),
      phase: 'Succeeded',
      message: 'successfully synced (all tasks run)',
      durationMs: 32_200,
      state: state('Succeeded', 'successfully synced (all tasks run)', [
        result(before, 'PreSync', true),
        result(service, 'Sync', false),
        result(deployment, 'Sync', false),
        result(after, 'PostSync', true),
      ]),
    },
    { type: 'HealthAssessed', at: at(74), health: { status: 'Healthy' }, afterMs: 42_000, unhealthy: [] },
  ];
}

/** How the thread of `prePostSyncEvents()` reads, line by line, when rendered with renderBlocksAsText. */
export const PRE_POST_SYNC_THREAD: readonly string[] = [
  '▶ PreSync · wave 0 — running hook Job/pre-post-sync-before',
  '✓ PreSync hook Job/pre-post-sync-before succeeded in 9.8 s',
  '✓ PreSync · wave 0 — done after 10 s',
  '▶ Sync · wave 0 — applying 2 resources: Service/pre-post-sync-kustomize-guestbook-ui, Deployment/pre-post-sync-kustomize-guestbook-ui',
  '✓ Sync · wave 0 — 2 resources Healthy after 18 s',
  '▶ PostSync · wave 0 — running hook Job/pre-post-sync-after',
  '✓ PostSync hook Job/pre-post-sync-after succeeded in 3.8 s',
  '✓ PostSync · wave 0 — done after 4 s',
  '🎉 Succeeded in 32 s · Healthy after 42 s · 2 resources synced, 2 hooks run',
];

/** `waves` Sync waves of one ConfigMap each; every `hookEvery`-th wave also runs a Job hook. Succeeds, Healthy. */
export function manyWavesEvents(waves: number, hookEvery: number): SyncEvent[] {
  const steps = Array.from({ length: waves }, (_, i) => {
    const wave: WaveRef = { phase: 'Sync', wave: i, index: i + 1, total: waves };
    const tasks = [
      ref('ConfigMap', `config-${i}`),
      ...(hookEvery > 0 && i % hookEvery === 0 ? [ref('Job', `hook-${i}`, true, 'batch')] : []),
    ];
    return { wave, tasks };
  });
  const events: SyncEvent[] = [
    {
      type: 'OperationStarted',
      at: at(0),
      application: 'many',
      revision: REVISION,
      operation: { prune: false, dryRun: false, syncOptions: [] },
      resumed: false,
      waves: steps.map((s) => ({ ...s.wave, tasks: s.tasks })),
    },
  ];
  for (const { wave, tasks } of steps) {
    events.push({ type: 'WaveStarted', at: at(wave.wave), wave, tasks });
    for (const task of tasks) {
      if (task.isHook) {
        events.push({ type: 'HookStarted', at: at(wave.wave), wave, task, hookType: 'Sync' });
        events.push({
          type: 'HookFinished',
          at: at(wave.wave + 0.5),
          wave,
          task,
          hookType: 'Sync',
          hookPhase: 'Succeeded',
          message: '',
          durationMs: 500,
          logTail: [],
        });
      } else {
        events.push({
          type: 'ResourceApplied',
          at: at(wave.wave),
          wave,
          task,
          status: 'Synced',
          message: 'configured',
        });
      }
    }
    events.push({
      type: 'WaveCompleted',
      at: at(wave.wave + 0.9),
      wave,
      durationMs: 900,
      failed: false,
      message: '',
      health: tasks
        .filter((t) => !t.isHook)
        .map((task) => ({ task, health: { status: 'Healthy' as const } })),
    });
  }
  events.push(
    {
      type: 'OperationCompleted',
      at: at(waves),
      phase: 'Succeeded',
      message: 'successfully synced (all tasks run)',
      durationMs: waves * 1000,
      state: state('Succeeded', '', []),
    },
    {
      type: 'HealthAssessed',
      at: at(waves + 1),
      health: { status: 'Healthy' },
      afterMs: 1000,
      unhealthy: [],
    },
  );
  return events;
}

/** Report `events` in order, waiting `gapMs` between them (0 = as fast as possible), then close. */
export async function feed(reporter: SyncReporter, events: readonly SyncEvent[], gapMs = 0): Promise<void> {
  for (const event of events) {
    await reporter.report(event);
    if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  await reporter.close();
}
