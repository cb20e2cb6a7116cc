import { describe, expect, it } from 'vitest';
import {
  crd,
  DELETE_POLICY,
  HOOK,
  obj,
  SYNC_OPTIONS,
  sourced,
  WAVE,
} from '../../../test/builders/manifest-builders.js';
import { HOOK_FINALIZER, type KubeObject, ManifestError, type SyncOperation } from '../../domain/index.js';
import { type BuildSyncTasksInput, buildSyncTasks } from './sync-tasks.js';

const OPERATION: SyncOperation = { prune: true, dryRun: false, syncOptions: [] };

function build(targets: KubeObject[], overrides: Partial<BuildSyncTasksInput> = {}) {
  return buildSyncTasks({
    targets: sourced(...targets),
    live: [],
    namespace: 'app',
    revision: '3f9a2c1d0e4b',
    startedAt: '2023-11-14T22:13:20Z',
    operation: OPERATION,
    ...overrides,
  });
}

/** Ex 5: live objects removed from git. */
const EX5_LIVE = [
  obj('v1', 'ConfigMap', 'a', {}, { namespace: 'app' }),
  obj('apps/v1', 'Deployment', 'b', { [WAVE]: '1' }, { namespace: 'app' }),
  obj('v1', 'Service', 'c', { [WAVE]: '2' }, { namespace: 'app' }),
];

/** `Phase/wave Kind/name` per task, plus ` (prune)` for prune tasks. */
function order(targets: KubeObject[], overrides: Partial<BuildSyncTasksInput> = {}): string[] {
  return build(targets, overrides).tasks.map(
    (t) => `${t.phase}/${t.wave} ${t.kind}/${t.name}${t.targetObj === undefined ? ' (prune)' : ''}`,
  );
}

describe('src/engine/sync-tasks', () => {
  it('Ex 1: PreSync hooks in waves 1 and 2 run before the Deployment', () => {
    const targets = [
      obj('apps/v1', 'Deployment', 'web'),
      obj('batch/v1', 'Job', 'migrate', { [HOOK]: 'PreSync', [WAVE]: '2' }),
      obj('v1', 'ConfigMap', 'cfg', { [HOOK]: 'PreSync', [WAVE]: '1' }),
    ];

    expect(order(targets)).toEqual([
      'PreSync/1 ConfigMap/cfg',
      'PreSync/2 Job/migrate',
      'Sync/0 Deployment/web',
    ]);
  });

  it('Ex 1: hook tasks carry the hook finalizer and the default BeforeHookCreation policy', () => {
    const [cfg] = build([obj('v1', 'ConfigMap', 'cfg', { [HOOK]: 'PreSync' })]).tasks;

    expect(cfg?.isHook).toBe(true);
    expect(cfg?.hookTypes).toEqual(['PreSync']);
    expect(cfg?.deletePolicies).toEqual(['BeforeHookCreation']);
    expect(cfg?.targetObj?.metadata.finalizers).toEqual([HOOK_FINALIZER]);
  });

  it('Ex 2: one wave runs in kind order, unknown kinds last', () => {
    const targets = [
      obj('apps/v1', 'Deployment', 'web', {}, { namespace: 'shop' }),
      obj('v1', 'Service', 'web', {}, { namespace: 'shop' }),
      obj('example.com/v1', 'Widget', 'w1', {}, { namespace: 'shop' }),
      obj('v1', 'ConfigMap', 'web-config', {}, { namespace: 'shop' }),
      obj('v1', 'Namespace', 'shop'),
    ];

    expect(order(targets)).toEqual([
      'Sync/0 Namespace/shop',
      'Sync/0 ConfigMap/web-config',
      'Sync/0 Service/web',
      'Sync/0 Deployment/web',
      'Sync/0 Widget/w1',
    ]);
  });

  it('Ex 4: negative waves; "+1" parses as 1; the CR of a new CRD skips the dry run', () => {
    const targets = [
      obj('networking.k8s.io/v1', 'Ingress', 'web', { [WAVE]: '+1' }),
      obj('apps/v1', 'Deployment', 'web'),
      obj('example.com/v1', 'Widget', 'w1', { [WAVE]: '-1' }),
      crd('example.com', 'Widget', 'widgets', { [WAVE]: '-2' }),
    ];
    const { tasks } = build(targets);

    expect(tasks.map((t) => `${t.wave} ${t.kind} skipDryRun=${t.skipDryRun}`)).toEqual([
      '-2 CustomResourceDefinition skipDryRun=false',
      '-1 Widget skipDryRun=true',
      '0 Deployment skipDryRun=false',
      '1 Ingress skipDryRun=false',
    ]);
  });

  it('Ex 4 variant: a CRD in a later wave than its CR is pulled to the CR wave, just before it', () => {
    const targets = [
      obj('example.com/v1', 'Widget', 'w1', { [WAVE]: '-1' }),
      crd('example.com', 'Widget', 'widgets'),
    ];

    expect(order(targets)).toEqual([
      'Sync/-1 CustomResourceDefinition/widgets.example.com',
      'Sync/-1 Widget/w1',
    ]);
  });

  it('does not skip the dry run when the CRD already exists live', () => {
    const widgets = crd('example.com', 'Widget', 'widgets');
    const { tasks } = build([widgets, obj('example.com/v1', 'Widget', 'w1')], { live: [widgets] });

    expect(tasks.map((t) => t.skipDryRun)).toEqual([false, false]);
  });

  it('skips the dry run of objects in a Namespace this sync creates (wavesync dry-runs on the server)', () => {
    const targets = [obj('v1', 'Namespace', 'team'), obj('v1', 'ConfigMap', 'c', {}, { namespace: 'team' })];

    expect(build(targets).tasks.map((t) => `${t.kind} ${t.skipDryRun}`)).toEqual([
      'Namespace false',
      'ConfigMap true',
    ]);
  });

  it('Ex 5: prunes run in reverse wave order on the prune waves, interleaved with applies', () => {
    const targets = [obj('apps/v1', 'Deployment', 'd', { [WAVE]: '1' })];

    expect(order(targets, { live: EX5_LIVE })).toEqual([
      'Sync/0 Service/c (prune)',
      'Sync/1 Deployment/b (prune)',
      'Sync/1 Deployment/d',
      'Sync/2 ConfigMap/a (prune)',
    ]);
  });

  it('Ex 5 variant: PruneLast moves every prune after the last Sync wave', () => {
    const operation = { ...OPERATION, syncOptions: ['PruneLast=true'] };

    expect(
      order([obj('apps/v1', 'Deployment', 'd', { [WAVE]: '1' })], { live: EX5_LIVE, operation }),
    ).toEqual([
      'Sync/1 Deployment/d',
      'Sync/3 ConfigMap/a (prune)',
      'Sync/3 Service/c (prune)',
      'Sync/3 Deployment/b (prune)',
    ]);
  });

  it('Ex 6 C: generateName hooks get generateName + rev7-phase-unixSeconds, one per phase', () => {
    const hook = obj('batch/v1', 'Job', '', { [HOOK]: 'PreSync,PostSync' }, { generateName: 'db-migrate-' });

    expect(build([hook]).tasks.map((t) => `${t.phase} ${t.name}`)).toEqual([
      'PreSync db-migrate-3f9a2c1-presync-1700000000',
      'PostSync db-migrate-3f9a2c1-postsync-1700000000',
    ]);
  });

  it('Ex 6: names are stable across passes of one operation and new for a new startedAt', () => {
    const hook = obj('batch/v1', 'Job', '', { [HOOK]: 'PreSync' }, { generateName: 'm-' });
    const first = build([hook]).tasks[0]?.name;

    expect(build([hook]).tasks[0]?.name).toBe(first);
    expect(build([hook], { startedAt: '2023-11-14T22:13:21Z' }).tasks[0]?.name).toBe(
      'm-3f9a2c1-presync-1700000001',
    );
  });

  it('Ex 7: Helm hooks map to phases, weights to waves, policies are unioned; crd-install is a resource', () => {
    const targets = [
      obj('apps/v1', 'Deployment', 'web'),
      obj('v1', 'ConfigMap', 'x', { [HOOK]: 'PostSync', 'helm.sh/hook': 'pre-install' }),
      obj('v1', 'Pod', 'test', { 'helm.sh/hook': 'test-success' }),
      crd('example.com', 'Widget', 'widgets', { 'helm.sh/hook': 'crd-install' }),
      obj('batch/v1', 'Job', 'pre', {
        'helm.sh/hook': 'pre-install,pre-upgrade',
        'helm.sh/hook-weight': '-5',
        'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
      }),
    ];
    const { tasks } = build(targets);

    expect(tasks.map((t) => `${t.phase}/${t.wave} ${t.kind}/${t.name}`)).toEqual([
      'PreSync/-5 Job/pre',
      'Sync/0 CustomResourceDefinition/widgets.example.com',
      'Sync/0 Deployment/web',
      'PostSync/0 ConfigMap/x',
    ]);
    expect(tasks[0]?.deletePolicies).toEqual(['BeforeHookCreation', 'HookSucceeded']);
    expect(tasks[1]?.isHook).toBe(false);
  });

  it('Ex 8: a Namespace in a later wave bubbles to the first task in it, taking its phase and wave', () => {
    const targets = [
      obj('v1', 'Namespace', 'team', { [WAVE]: '5' }),
      obj('batch/v1', 'Job', 'seed', { [HOOK]: 'PreSync' }, { namespace: 'team' }),
      obj('apps/v1', 'Deployment', 'api', {}, { namespace: 'team' }),
    ];

    expect(order(targets)).toEqual([
      'PreSync/0 Namespace/team',
      'PreSync/0 Job/seed',
      'Sync/0 Deployment/api',
    ]);
  });

  it('moves several late Namespaces, each before its own first dependent (indexes shift as in adjustDeps)', () => {
    const targets = [
      obj('v1', 'Namespace', 'n1', { [WAVE]: '5' }),
      obj('v1', 'Namespace', 'n2', { [WAVE]: '6' }),
      obj('batch/v1', 'Job', 'a', { [HOOK]: 'PreSync' }, { namespace: 'n1' }),
      obj('batch/v1', 'Job', 'b', { [HOOK]: 'PreSync' }, { namespace: 'n2' }),
      obj('v1', 'ConfigMap', 'c', {}, { namespace: 'n2' }),
    ];

    expect(order(targets)).toEqual([
      'PreSync/0 Namespace/n1',
      'PreSync/0 Job/a',
      'PreSync/0 Namespace/n2',
      'PreSync/0 Job/b',
      'Sync/0 ConfigMap/c',
    ]);
  });

  it('moves a CRD before the first resource of its kind in another phase, and ignores prune tasks', () => {
    const live = [obj('example.com/v1', 'Widget', 'gone', {}, { namespace: 'app' })];
    const targets = [
      crd('example.com', 'Widget', 'widgets', { [WAVE]: '2' }),
      obj('example.com/v1', 'Widget', 'seed', { [HOOK]: 'PreSync', [WAVE]: '1' }),
    ];

    expect(order(targets, { live })).toEqual([
      'PreSync/1 CustomResourceDefinition/widgets.example.com',
      'PreSync/1 Widget/seed',
      'Sync/0 Widget/gone (prune)',
    ]);
  });

  it('leaves a Namespace that already precedes its first dependent where it is', () => {
    const targets = [
      obj('v1', 'Namespace', 'team', { [WAVE]: '-1' }),
      obj('apps/v1', 'Deployment', 'api', { [WAVE]: '3' }, { namespace: 'team' }),
    ];

    expect(order(targets)).toEqual(['Sync/-1 Namespace/team', 'Sync/3 Deployment/api']);
  });

  it('Ex 9: Applications (an unknown kind) order by wave, then name', () => {
    const targets = [
      obj('argoproj.io/v1alpha1', 'Application', 'apps', { [WAVE]: '0' }, { namespace: 'argocd' }),
      obj('argoproj.io/v1alpha1', 'Application', 'infra', { [WAVE]: '-1' }, { namespace: 'argocd' }),
    ];

    expect(order(targets)).toEqual(['Sync/-1 Application/infra', 'Sync/0 Application/apps']);
  });

  it('puts SyncFail tasks after all others, in their own wave order', () => {
    const targets = [
      obj('batch/v1', 'Job', 'notify', { [HOOK]: 'SyncFail', [WAVE]: '-3' }),
      obj('batch/v1', 'Job', 'cleanup', { [HOOK]: 'SyncFail', [WAVE]: '-4' }),
      obj('batch/v1', 'Job', 'smoke', { [HOOK]: 'PostSync', [WAVE]: '9' }),
      obj('apps/v1', 'Deployment', 'web', { [WAVE]: '20' }),
    ];

    expect(order(targets)).toEqual([
      'Sync/20 Deployment/web',
      'PostSync/9 Job/smoke',
      'SyncFail/-4 Job/cleanup',
      'SyncFail/-3 Job/notify',
    ]);
  });

  it('breaks ties on phase, wave, kind and name by namespace, then group (documented divergence)', () => {
    const targets = [
      obj('b.example/v1', 'Thing', 'x', {}, { namespace: 'n1' }),
      obj('a.example/v1', 'Thing', 'x', {}, { namespace: 'n1' }),
      obj('v1', 'Pod', 'x', {}, { namespace: 'zz' }),
      obj('v1', 'Pod', 'x', {}, { namespace: 'aa' }),
    ];

    expect(build(targets).tasks.map((t) => `${t.kind} ${t.namespace} ${t.group}`)).toEqual([
      'Pod aa ',
      'Pod zz ',
      'Thing n1 a.example',
      'Thing n1 b.example',
    ]);
  });

  it('gives every target without a namespace the destination namespace, even cluster-scoped kinds', () => {
    const targets = [
      obj('rbac.authorization.k8s.io/v1', 'ClusterRole', 'r'),
      obj('v1', 'Pod', 'p', {}, { namespace: 'x' }),
    ];
    const { tasks } = build(targets);

    expect(tasks.map((t) => `${t.kind} ${t.namespace} ${t.targetObj?.metadata.namespace}`)).toEqual([
      'ClusterRole app app',
      'Pod x x',
    ]);
    expect(targets[0]?.metadata.namespace).toBeUndefined();
  });

  it('leaves namespaces empty when there is no destination namespace', () => {
    expect(build([obj('v1', 'Pod', 'p')], { namespace: '' }).tasks[0]?.namespace).toBe('');
  });

  it('pairs targets with live objects by group/kind/namespace/name; cluster-scoped live objects match by name', () => {
    const livePod = obj('v1', 'Pod', 'p', {}, { namespace: 'app' });
    const liveRole = obj('rbac.authorization.k8s.io/v1', 'ClusterRole', 'r');
    const otherPod = obj('v1', 'Pod', 'p', {}, { namespace: 'elsewhere' });
    const targets = [obj('v1', 'Pod', 'p'), obj('rbac.authorization.k8s.io/v1', 'ClusterRole', 'r')];
    const { tasks } = build(targets, { live: [livePod, liveRole, otherPod] });

    expect(tasks.map((t) => [t.kind, t.namespace, t.liveObj, t.targetObj === undefined])).toEqual([
      ['ClusterRole', 'app', liveRole, false],
      ['Pod', 'app', livePod, false],
      ['Pod', 'elsewhere', otherPod, true],
    ]);
  });

  it('never prunes live hooks, Skip objects or ignored objects', () => {
    const live = [
      obj('batch/v1', 'Job', 'old-hook', { [HOOK]: 'PreSync' }, { namespace: 'app' }),
      obj('v1', 'ConfigMap', 'skipped', { [HOOK]: 'Skip' }, { namespace: 'app' }),
      obj('v1', 'Pod', 'helm-test', { 'helm.sh/hook': 'test-success' }, { namespace: 'app' }),
      obj('v1', 'ConfigMap', 'gone', {}, { namespace: 'app' }),
    ];

    expect(order([], { live })).toEqual(['Sync/0 ConfigMap/gone (prune)']);
  });

  it('gives Skip targets no task and keeps their live object from being pruned', () => {
    const skip = obj('v1', 'ConfigMap', 'cm', { [HOOK]: 'Skip' });

    expect(order([skip], { live: [obj('v1', 'ConfigMap', 'cm', {}, { namespace: 'app' })] })).toEqual([]);
  });

  it('drops ignored targets (PostDelete, helm test) entirely', () => {
    const targets = [
      obj('v1', 'Pod', 'cleanup', { [HOOK]: 'PostDelete' }),
      obj('v1', 'Pod', 'test', { 'helm.sh/hook': 'test' }),
    ];

    expect(order(targets)).toEqual([]);
  });

  it('matches a hook to its live object from an earlier operation (for BeforeHookCreation)', () => {
    const liveHook = obj('batch/v1', 'Job', 'db-migrate', { [HOOK]: 'PreSync' }, { namespace: 'app' });
    const { tasks } = build([obj('batch/v1', 'Job', 'db-migrate', { [HOOK]: 'PreSync' })], {
      live: [liveHook],
    });

    expect(tasks).toHaveLength(1);
    expect(tasks[0]?.liveObj).toBe(liveHook);
  });

  it('selective sync: only the named resources, no hooks, no other prunes', () => {
    const operation: SyncOperation = {
      ...OPERATION,
      resources: [
        { group: 'apps', kind: 'Deployment', name: 'web' },
        { group: '', kind: 'ConfigMap', name: 'old', namespace: 'app' },
      ],
    };
    const targets = [
      obj('apps/v1', 'Deployment', 'web'),
      obj('v1', 'Service', 'web'),
      obj('batch/v1', 'Job', 'migrate', { [HOOK]: 'PreSync' }),
    ];
    const live = [
      obj('v1', 'ConfigMap', 'old', {}, { namespace: 'app' }),
      obj('v1', 'ConfigMap', 'x', {}, { namespace: 'app' }),
    ];

    expect(order(targets, { operation, live })).toEqual([
      'Sync/0 ConfigMap/old (prune)',
      'Sync/0 Deployment/web',
    ]);
  });

  it('CreateNamespace=true adds a PreSync/0 Namespace task unless declared or existing', () => {
    const operation = { ...OPERATION, syncOptions: ['CreateNamespace=true'] };
    const pod = obj('v1', 'Pod', 'p');

    expect(order([pod], { operation })).toEqual(['PreSync/0 Namespace/app', 'Sync/0 Pod/p']);
    expect(order([pod], { operation, namespaceExists: true })).toEqual(['Sync/0 Pod/p']);
    expect(order([pod, obj('v1', 'Namespace', 'app', { [WAVE]: '-1' })], { operation })).toEqual([
      'Sync/-1 Namespace/app',
      'Sync/0 Pod/p',
    ]);
  });

  it('CreateNamespace=true creates the Namespace with managedNamespaceMetadata labels and annotations', () => {
    const operation = { ...OPERATION, syncOptions: ['CreateNamespace=true'] };
    const managedNamespaceMetadata = { labels: { team: 'web' }, annotations: { owner: 'pat' } };

    const [task] = build([obj('v1', 'Pod', 'p')], { operation, managedNamespaceMetadata }).tasks;

    expect(task?.targetObj?.metadata).toEqual({
      name: 'app',
      labels: { team: 'web' },
      annotations: { owner: 'pat' },
    });
    expect(build([], { operation }).tasks[0]?.targetObj?.metadata).toEqual({ name: 'app' });
  });

  it('CreateNamespace=true never prunes the destination Namespace it created, which carries the tracking label', () => {
    const operation = { ...OPERATION, syncOptions: ['CreateNamespace=true'] };
    const live = [obj('v1', 'Namespace', 'app'), obj('v1', 'ConfigMap', 'old', {}, { namespace: 'app' })];

    expect(order([obj('v1', 'Pod', 'p')], { operation, live, namespaceExists: true })).toEqual([
      'Sync/0 ConfigMap/old (prune)',
      'Sync/0 Pod/p',
    ]);
    expect(order([obj('v1', 'Pod', 'p')], { live })).toEqual([
      'Sync/0 Namespace/app (prune)',
      'Sync/0 ConfigMap/old (prune)',
      'Sync/0 Pod/p',
    ]);
  });

  it('reads PruneLast from the live object sync-options', () => {
    const live = [
      obj('v1', 'ConfigMap', 'last', { [SYNC_OPTIONS]: 'PruneLast=true' }, { namespace: 'app' }),
      obj('v1', 'ConfigMap', 'early', {}, { namespace: 'app' }),
    ];

    expect(order([obj('v1', 'Pod', 'p', { [WAVE]: '4' })], { live })).toEqual([
      'Sync/0 ConfigMap/early (prune)',
      'Sync/4 Pod/p',
      'Sync/5 ConfigMap/last (prune)',
    ]);
  });

  it('rejects duplicate targets after namespace defaulting, naming both places', () => {
    const targets = [obj('v1', 'Pod', 'p'), obj('v1', 'Pod', 'p', {}, { namespace: 'app' })];

    expect(() => build(targets)).toThrow(ManifestError);
    expect(() => build(targets)).toThrow(
      'test.yaml:2: duplicate resource Pod/p in namespace app, also defined at test.yaml:1',
    );
  });

  it('reports each silent fallback once per object with its file and line', () => {
    const targets = [
      obj('v1', 'Pod', 'ok'),
      obj('batch/v1', 'Job', 'j', { [HOOK]: 'presync,PostSync', [WAVE]: '1.5', [DELETE_POLICY]: 'Never' }),
    ];

    expect(build(targets).warnings).toEqual([
      {
        file: 'test.yaml',
        line: 2,
        message:
          'Job/j: argocd.argoproj.io/hook: unknown hook type "presync" (did you mean PreSync?); Argo CD ignores it',
      },
      {
        file: 'test.yaml',
        line: 2,
        message:
          'Job/j: annotation argocd.argoproj.io/sync-wave: "1.5" is not an integer (Go strconv.Atoi syntax); Argo CD falls back to 0',
      },
      {
        file: 'test.yaml',
        line: 2,
        message: 'Job/j: argocd.argoproj.io/hook-delete-policy: unknown policy "Never"; Argo CD ignores it',
      },
    ]);
  });

  it('warns about sync options Argo CD does not know, with the closest valid one, and keeps the rest', () => {
    const targets = [
      obj('v1', 'ConfigMap', 'c', {
        'argocd.argoproj.io/sync-options':
          'Prune=flase, ServerSideAply=true,Replace=true,PrunePropagationPolicy=Orphan',
      }),
    ];

    expect(build(targets).warnings.map((w) => `${w.file}:${w.line}: ${w.message}`)).toEqual([
      'test.yaml:1: ConfigMap/c: argocd.argoproj.io/sync-options: unknown sync option "Prune=flase" (did you mean Prune=false?); Argo CD ignores it',
      'test.yaml:1: ConfigMap/c: argocd.argoproj.io/sync-options: unknown sync option "ServerSideAply=true" (did you mean ServerSideApply=true?); Argo CD ignores it',
    ]);
  });

  it('does not mutate its inputs', () => {
    const targets = [obj('batch/v1', 'Job', '', { [HOOK]: 'PreSync' }, { generateName: 'g-' })];
    const before = JSON.stringify(targets);

    build(targets);

    expect(JSON.stringify(targets)).toBe(before);
  });
});
