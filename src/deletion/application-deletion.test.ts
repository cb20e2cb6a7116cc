import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../domain/index.js';
import {
  cascadeOf,
  confirmationKeys,
  finalizersForCascade,
  nextDeletionStep,
  planDeletion,
} from './application-deletion.js';

const FOREGROUND = 'resources-finalizer.argocd.argoproj.io';
const BACKGROUND = 'resources-finalizer.argocd.argoproj.io/background';

function obj(
  kind: string,
  name: string,
  annotations: Record<string, string> = {},
  apiVersion = 'v1',
): KubeObject {
  return { apiVersion, kind, metadata: { name, namespace: 'shop', annotations } };
}
const wave = (w: number) => ({ 'argocd.argoproj.io/sync-wave': String(w) });
const app = (finalizers: string[], syncOptions?: string[]) => ({
  name: 'shop',
  namespace: 'argocd',
  finalizers,
  ...(syncOptions ? { syncPolicy: { syncOptions } } : {}),
});
const names = (objects: KubeObject[]) => objects.map((o) => `${o.kind}/${o.metadata.name}`);

describe('nextDeletionStep', () => {
  const live = [
    obj('ConfigMap', 'config', wave(-1)),
    obj('Deployment', 'web', {}, 'apps/v1'),
    obj('Service', 'web'),
    obj('Job', 'migrate', wave(2), 'batch/v1'),
  ];

  it('without a resources finalizer removes only the Application and orphans its resources', () => {
    const step = nextDeletionStep(app([]), live);

    expect(step).toMatchObject({ action: 'remove-application' });
    expect(
      step.action === 'remove-application' && step.kept.map((k) => `${k.key.kind}/${k.key.name}:${k.reason}`),
    ).toEqual([
      'ConfigMap/config:orphaned',
      'Deployment/web:orphaned',
      'Service/web:orphaned',
      'Job/migrate:orphaned',
    ]);
  });

  it('deletes in reverse wave order, one wave per step, waiting for terminating objects', () => {
    const first = nextDeletionStep(app([FOREGROUND]), live);
    expect(first).toMatchObject({ action: 'delete', wave: 2, propagationPolicy: 'Foreground' });
    expect(first.action === 'delete' && names(first.objects)).toEqual(['Job/migrate']);

    const terminating = live.map((o) =>
      o.metadata.name === 'migrate'
        ? { ...o, metadata: { ...o.metadata, deletionTimestamp: '2026-11-29T00:00:00Z' } }
        : o,
    );
    expect(nextDeletionStep(app([FOREGROUND]), terminating)).toEqual({
      action: 'wait',
      reason: 'waiting for 1 resources to be deleted',
      terminating: [{ group: 'batch', kind: 'Job', namespace: 'shop', name: 'migrate' }],
    });

    const second = nextDeletionStep(app([FOREGROUND]), live.slice(0, 3));
    expect(second.action === 'delete' && [second.wave, names(second.objects)]).toEqual([
      0,
      ['Deployment/web', 'Service/web'],
    ]);
    const third = nextDeletionStep(app([FOREGROUND]), live.slice(0, 1));
    expect(third.action === 'delete' && [third.wave, names(third.objects)]).toEqual([
      -1,
      ['ConfigMap/config'],
    ]);
    expect(nextDeletionStep(app([FOREGROUND]), [])).toEqual({ action: 'remove-application', kept: [] });
  });

  it('uses Background propagation with the /background finalizer', () => {
    expect(nextDeletionStep(app([BACKGROUND]), live)).toMatchObject({
      action: 'delete',
      propagationPolicy: 'Background',
    });
  });

  it('keeps Delete=false, helm keep, CRDs and the Application itself; the object annotation overrides the app', () => {
    const objects = [
      obj('ConfigMap', 'keep-me', { 'argocd.argoproj.io/sync-options': 'Prune=false,Delete=false' }),
      obj('Secret', 'helm-kept', { 'helm.sh/resource-policy': 'keep' }),
      obj('CustomResourceDefinition', 'widgets.example.com', {}, 'apiextensions.k8s.io/v1'),
      {
        ...obj('Application', 'shop', {}, 'argoproj.io/v1alpha1'),
        metadata: { name: 'shop', namespace: 'argocd' },
      },
      obj('Service', 'forced', { 'argocd.argoproj.io/sync-options': 'Delete=true' }),
      obj('Service', 'web'),
    ];

    const step = nextDeletionStep(app([FOREGROUND], ['Delete=false']), objects);

    expect(step.action === 'delete' && names(step.objects)).toEqual(['Service/forced']);
    const done = nextDeletionStep(
      app([FOREGROUND], ['Delete=false']),
      objects.slice(0, 4).concat(objects[5]!),
    );
    expect(done.action === 'remove-application' && done.kept.map((k) => `${k.key.name}:${k.reason}`)).toEqual(
      [
        'keep-me:Delete=false',
        'helm-kept:helm.sh/resource-policy: keep',
        'widgets.example.com:CustomResourceDefinition',
        'shop:the Application itself',
        'web:Delete=false',
      ],
    );
  });

  it('waits for a confirmation before deleting Delete=confirm objects', () => {
    const objects = [
      obj('PersistentVolumeClaim', 'data', { 'argocd.argoproj.io/sync-options': 'Delete=confirm' }),
    ];

    expect(nextDeletionStep(app([FOREGROUND]), objects)).toEqual({
      action: 'await-confirmation',
      objects: [{ group: '', kind: 'PersistentVolumeClaim', namespace: 'shop', name: 'data' }],
    });
    expect(nextDeletionStep(app([FOREGROUND]), objects, { deletionConfirmed: true })).toMatchObject({
      action: 'delete',
      wave: 0,
    });
  });
});

describe('finalizersForCascade', () => {
  it('follows the Application without --cascade, and sets or removes the resources finalizer as Argo CD does', () => {
    const own = app(['example.com/other', BACKGROUND]);

    expect(finalizersForCascade(own, undefined)).toEqual(['example.com/other', BACKGROUND]);
    expect(finalizersForCascade(own, 'foreground')).toEqual(['example.com/other', FOREGROUND]);
    expect(finalizersForCascade(own, 'orphan')).toEqual(['example.com/other']);
    expect(cascadeOf(finalizersForCascade(app([]), 'background'))).toBe('background');
    expect(cascadeOf(['resources-finalizer.argocd.argoproj.io/foreground'])).toBe('foreground');
  });
});

describe('planDeletion', () => {
  const live = [
    obj('ConfigMap', 'config', wave(-1)),
    obj('Deployment', 'web', {}, 'apps/v1'),
    obj('PersistentVolumeClaim', 'data', { 'argocd.argoproj.io/sync-options': 'Delete=confirm' }),
    obj('Secret', 'kept', { 'helm.sh/resource-policy': 'keep' }),
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
    {
      ...obj('Service', 'going'),
      metadata: { name: 'going', namespace: 'shop', deletionTimestamp: '2026-11-29T00:00:00Z' },
    },
  ];
  const shop = {
    ...app([FOREGROUND], ['CreateNamespace=true']),
    destination: { namespace: 'shop' },
  };

  it('lists the waves in deletion order, what is kept and why, and the Delete=confirm objects', () => {
    const plan = planDeletion(shop, live);

    expect(plan.cascade).toBe('foreground');
    expect(plan.propagationPolicy).toBe('Foreground');
    expect(plan.waves.map((w) => [w.wave, w.resources.map((k) => k.name)])).toEqual([
      [0, ['web', 'data']],
      [-1, ['config']],
    ]);
    expect(plan.kept.map((k) => `${k.key.kind}/${k.key.name}:${k.reason}`)).toEqual([
      'Secret/kept:helm.sh/resource-policy: keep',
      'Namespace/shop:CreateNamespace=true',
    ]);
    expect(confirmationKeys(plan.confirm)).toEqual(['/PersistentVolumeClaim/shop/data']);
  });

  it('with --cascade=orphan plans no waves and keeps everything as orphaned', () => {
    const plan = planDeletion(shop, live, 'orphan');

    expect(plan).toMatchObject({ cascade: 'orphan', waves: [], confirm: [] });
    expect(plan.kept.every((k) => k.reason === 'orphaned')).toBe(true);
  });
});
