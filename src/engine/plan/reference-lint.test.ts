import { describe, expect, it } from 'vitest';
import { obj, sourced, WAVE } from '../../../test/builders/manifest-builders.js';
import type { KubeObject } from '../../domain/index.js';
import { podReferencesOf } from '../health/pod-references.js';
import { lateReferencesOf } from './reference-lint.js';
import { buildSyncTasks } from './sync-tasks.js';

const HOOK = 'argocd.argoproj.io/hook';

function plan(objects: KubeObject[], live: KubeObject[] = []) {
  return buildSyncTasks({
    targets: sourced(...objects),
    live,
    namespace: 'shop',
    revision: 'abc1234',
    startedAt: '2026-01-01T00:00:00Z',
    operation: { prune: false, dryRun: true, syncOptions: [] },
    lintReferences: true,
  });
}

function withPodSpec(o: KubeObject, podSpec: unknown): KubeObject {
  const template = { spec: podSpec };
  if (o.kind === 'Pod') return { ...o, spec: podSpec };
  if (o.kind === 'CronJob') return { ...o, spec: { jobTemplate: { spec: { template } } } };
  return { ...o, spec: { template } };
}

const fullPodSpec = {
  serviceAccountName: 'runner',
  imagePullSecrets: [{ name: 'registry' }],
  initContainers: [{ name: 'init', envFrom: [{ secretRef: { name: 'init-secret' } }] }],
  containers: [
    {
      name: 'main',
      env: [
        { name: 'A', valueFrom: { configMapKeyRef: { name: 'env-a', key: 'a' } } },
        { name: 'B', valueFrom: { secretKeyRef: { name: 'env-b', key: 'b', optional: true } } },
        { name: 'C', value: 'plain' },
      ],
      envFrom: [{ configMapRef: { name: 'bulk' } }],
    },
  ],
  volumes: [
    { name: 'cfg', configMap: { name: 'vol-cm' } },
    { name: 'sec', secret: { secretName: 'vol-secret', optional: true } },
    { name: 'data', persistentVolumeClaim: { claimName: 'data' } },
    {
      name: 'all',
      projected: { sources: [{ configMap: { name: 'proj-cm' } }, { secret: { name: 'proj-s' } }] },
    },
  ],
};

describe('podReferencesOf', () => {
  it.each(['Pod', 'Job', 'Deployment', 'StatefulSet', 'DaemonSet', 'CronJob'])(
    'reads every reference of a %s',
    (kind) => {
      const apiVersion = ['Pod'].includes(kind)
        ? 'v1'
        : ['Job', 'CronJob'].includes(kind)
          ? 'batch/v1'
          : 'apps/v1';
      const refs = podReferencesOf(withPodSpec(obj(apiVersion, kind, 'w'), fullPodSpec));

      expect(
        refs.map((r) => `${r.kind}/${r.name}${r.optional ? ' optional' : ''} ${r.container ?? '-'} ${r.via}`),
      ).toEqual([
        'Secret/init-secret init envFrom',
        'ConfigMap/env-a main env A',
        'Secret/env-b optional main env B',
        'ConfigMap/bulk main envFrom',
        'ConfigMap/vol-cm - volume cfg',
        'Secret/vol-secret optional - volume sec',
        'PersistentVolumeClaim/data - volume data',
        'ConfigMap/proj-cm - volume all',
        'Secret/proj-s - volume all',
        'ServiceAccount/runner - serviceAccountName',
        'Secret/registry - imagePullSecrets',
      ]);
    },
  );

  it('has none for kinds without a pod template', () => {
    expect(podReferencesOf(obj('v1', 'Service', 's', {}, { spec: fullPodSpec }))).toEqual([]);
  });
});

describe('reference lint: a Pod reads an object this sync creates only in a later step', () => {
  const migrate = withPodSpec(obj('batch/v1', 'Job', 'schema-migrate', { [HOOK]: 'PreSync' }), {
    containers: [{ name: 'migrate', envFrom: [{ configMapRef: { name: 'storefront-db-env' } }] }],
  });

  it('warns with the fix, at the reading object', () => {
    const { warnings } = plan([migrate, obj('v1', 'ConfigMap', 'storefront-db-env')]);

    expect(warnings).toEqual([
      {
        file: 'test.yaml',
        line: 1,
        message:
          'PreSync Job/schema-migrate reads ConfigMap/storefront-db-env, which this sync creates later (Sync wave 0): make it a PreSync hook in an earlier wave',
      },
    ]);
  });

  it('does not warn when the object is created earlier, in the same step, or already live', () => {
    const earlier = obj('v1', 'ConfigMap', 'storefront-db-env', { [HOOK]: 'PreSync', [WAVE]: '-1' });
    const sameStep = obj('v1', 'ConfigMap', 'storefront-db-env', { [HOOK]: 'PreSync' });
    const live: KubeObject = {
      ...obj('v1', 'ConfigMap', 'storefront-db-env'),
      metadata: { name: 'storefront-db-env', namespace: 'shop' },
    };

    expect(plan([migrate, earlier]).warnings).toEqual([]);
    expect(plan([migrate, sameStep]).warnings).toEqual([]);
    expect(plan([migrate, obj('v1', 'ConfigMap', 'storefront-db-env')], [live]).warnings).toEqual([]);
  });

  it('exempts optional references', () => {
    const optional = withPodSpec(obj('batch/v1', 'Job', 'schema-migrate', { [HOOK]: 'PreSync' }), {
      containers: [
        { name: 'migrate', envFrom: [{ configMapRef: { name: 'storefront-db-env', optional: true } }] },
      ],
    });

    expect(plan([optional, obj('v1', 'ConfigMap', 'storefront-db-env')]).warnings).toEqual([]);
  });

  it('covers resources too: a StatefulSet in wave 0 that mounts a Secret of wave 1 and runs as a ServiceAccount of wave 2', () => {
    const db = withPodSpec(obj('apps/v1', 'StatefulSet', 'db'), {
      serviceAccountName: 'db',
      containers: [{ name: 'db' }],
      volumes: [{ name: 'creds', secret: { secretName: 'db-creds' } }],
    });

    const { tasks, warnings } = plan([
      db,
      obj('v1', 'Secret', 'db-creds', { [WAVE]: '1' }),
      obj('v1', 'ServiceAccount', 'db', { [WAVE]: '2' }),
    ]);

    expect(warnings.map((w) => w.message)).toEqual([
      'Sync StatefulSet/db reads Secret/db-creds, which this sync creates later (Sync wave 1): give it sync-wave 0 or lower',
      'Sync StatefulSet/db uses ServiceAccount/db, which this sync creates later (Sync wave 2): give it sync-wave 0 or lower',
    ]);
    expect(lateReferencesOf(tasks).map((l) => l.creator.name)).toEqual(['db-creds', 'db']);
  });

  it('only matches objects of the same namespace', () => {
    const other: KubeObject = {
      ...obj('v1', 'ConfigMap', 'storefront-db-env'),
      metadata: { name: 'storefront-db-env', namespace: 'elsewhere' },
    };

    expect(plan([migrate, other]).warnings).toEqual([]);
  });
});
