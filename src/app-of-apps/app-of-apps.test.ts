import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../domain/index.js';
import {
  type ChildApplication,
  type ChildSyncStatus,
  childApplicationsOf,
  childRefusal,
  nextChildSyncStep,
} from './app-of-apps.js';

function child(name: string, wave = 0): KubeObject {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name, namespace: 'argocd', annotations: { 'argocd.argoproj.io/sync-wave': String(wave) } },
    spec: {
      source: { repoURL: '', path: `manifests/${name}` },
      destination: { server: 'https://kubernetes.default.svc', namespace: name },
    },
  };
}

function task(obj: KubeObject, wave: number, extra: { isHook?: boolean; prune?: boolean } = {}) {
  const group = obj.apiVersion.includes('/') ? obj.apiVersion.split('/')[0]! : '';
  return {
    group,
    kind: obj.kind,
    wave,
    isHook: extra.isHook ?? false,
    targetObj: extra.prune ? undefined : obj,
    source: { file: 'parent/apps.yaml', line: 10 },
  };
}

describe('childApplicationsOf', () => {
  it('keeps the parent’s task order and skips hooks, prune tasks and other kinds', () => {
    const crd: KubeObject = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'x' },
    };
    const tasks = [
      task(crd, -1),
      task(child('infra', -1), -1),
      task(child('hooked'), 0, { isHook: true }),
      task(child('apps'), 0),
      task(child('gone'), 0, { prune: true }),
      task(child('late', 5), 5),
    ];

    const children = childApplicationsOf(tasks, { gateOnChildHealth: true });

    expect(children.map((c) => [c.application.name, c.wave, c.gateOnHealth])).toEqual([
      ['infra', -1, true],
      ['apps', 0, true],
      ['late', 5, true],
    ]);
    expect(children[1]?.application).toMatchObject({
      source: { repoURL: '', path: 'manifests/apps' },
      destination: { namespace: 'apps' },
      origin: 'parent/apps.yaml:10',
    });
  });

  it('names the manifest of an invalid child', () => {
    const bad = { ...child('bad'), spec: { destination: {} } };

    expect(() => childApplicationsOf([task(bad, 0)], { gateOnChildHealth: true })).toThrow(
      /^parent\/apps\.yaml:10: invalid Application: spec\.source: /,
    );
  });
});

describe('nextChildSyncStep', () => {
  const children = (gate: boolean): ChildApplication[] =>
    childApplicationsOf([task(child('infra', -1), -1), task(child('apps'), 0)], { gateOnChildHealth: gate });
  const statuses = (entries: [string, ChildSyncStatus][]) => new Map(entries);

  it('syncs children one at a time, each after the previous is Succeeded and Healthy', () => {
    const gated = children(true);

    expect(nextChildSyncStep(gated, statuses([]))).toMatchObject({
      action: 'sync',
      child: { application: { name: 'infra' } },
    });
    expect(
      nextChildSyncStep(gated, statuses([['infra', { phase: 'Running', health: 'Progressing' }]])),
    ).toEqual({
      action: 'wait',
      child: gated[0],
      reason: 'waiting for infra to finish syncing',
    });
    expect(
      nextChildSyncStep(gated, statuses([['infra', { phase: 'Succeeded', health: 'Progressing' }]])),
    ).toMatchObject({
      action: 'wait',
      reason: 'waiting for infra to become Healthy (now Progressing)',
    });
    expect(
      nextChildSyncStep(gated, statuses([['infra', { phase: 'Succeeded', health: 'Healthy' }]])),
    ).toMatchObject({
      action: 'sync',
      child: { application: { name: 'apps' } },
    });
    expect(
      nextChildSyncStep(
        gated,
        statuses([
          ['infra', { phase: 'Succeeded', health: 'Healthy' }],
          ['apps', { phase: 'Succeeded', health: 'Healthy' }],
        ]),
      ),
    ).toEqual({ action: 'done' });
  });

  it('stops at a failed or Degraded child', () => {
    const gated = children(true);

    expect(
      nextChildSyncStep(gated, statuses([['infra', { phase: 'Failed', health: 'Missing' }]])),
    ).toMatchObject({
      action: 'failed',
      message: 'child application infra sync Failed',
    });
    expect(
      nextChildSyncStep(gated, statuses([['infra', { phase: 'Succeeded', health: 'Degraded' }]])),
    ).toMatchObject({
      action: 'failed',
      message: 'child application infra is Degraded',
    });
  });

  it('without gating, starts the next child as soon as the previous one started', () => {
    const ungated = children(false);

    expect(
      nextChildSyncStep(ungated, statuses([['infra', { phase: 'Running', health: 'Progressing' }]])),
    ).toMatchObject({
      action: 'sync',
      child: { application: { name: 'apps' } },
    });
    expect(
      nextChildSyncStep(
        ungated,
        statuses([
          ['infra', { phase: 'Failed', health: 'Degraded' }],
          ['apps', { phase: 'Running', health: 'Progressing' }],
        ]),
      ),
    ).toEqual({ action: 'done' });
  });
});

describe("childRefusal: what a parent's approval does not cover", () => {
  const context = {
    parent: 'stack',
    parentEnvironment: 'staging',
    childEnvironment: undefined,
    registered: undefined,
  };

  it("allows a child in the parent's environment (or none) that no file or git source registers", () => {
    expect(childRefusal({ name: 'web' }, context)).toBeUndefined();
    expect(childRefusal({ name: 'web' }, { ...context, childEnvironment: 'staging' })).toBeUndefined();
    // Listed from the cluster: typically this very child, applied by the parent earlier.
    expect(
      childRefusal({ name: 'web' }, { ...context, registered: { origin: 'cluster:current/argocd/web:1' } }),
    ).toBeUndefined();
  });

  it('refuses a child named like a registered Application, and one of another environment', () => {
    expect(
      childRefusal({ name: 'payments' }, { ...context, registered: { origin: 'apps/payments.yaml:1' } }),
    ).toBe(
      'child payments has the name of the Application registered at apps/payments.yaml:1; a parent may not sync it (use /sync payments)',
    );
    expect(childRefusal({ name: 'db' }, { ...context, childEnvironment: 'production' })).toMatch(
      /^child db belongs to environment production and stack to staging/,
    );
    expect(
      childRefusal(
        { name: 'db' },
        { ...context, parentEnvironment: undefined, childEnvironment: 'production' },
      ),
    ).toMatch(/and stack to no environment/);
  });
});
