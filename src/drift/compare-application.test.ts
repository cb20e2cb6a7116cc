import { describe, expect, it } from 'vitest';
import { countEventLoopTurns } from '../../test/support/event-loop-turns.js';
import type { KubeObject } from '../domain/index.js';
import { parseIgnoreDifferences, TimeSlice } from '../engine/index.js';
import { compareApplication, compareApplicationSliced } from './compare-application.js';

const source = { file: 'm.yaml', line: 1 };
const deployment = (replicas: number | string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas,
    template: { spec: { containers: [{ name: 'web', image: 'web:1', ports: [{ containerPort: 80 }] }] } },
  },
  ...extra,
});
const live = (obj: KubeObject, namespace = 'shop'): KubeObject => ({
  ...obj,
  metadata: {
    ...obj.metadata,
    namespace,
    uid: 'u',
    resourceVersion: '9',
    labels: { ...obj.metadata.labels, 'app.kubernetes.io/instance': 'shop' },
  },
  status: { readyReplicas: 2 },
});

describe('compareApplication', () => {
  it('when compared in time slices, then the differences equal those compared at once, and the event loop ran in between', async () => {
    const configMap = (name: string, value: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name },
      data: { value },
    });
    const targets = Array.from({ length: 2000 }, (_, i) => ({ object: configMap(`c-${i}`, 'a'), source }));
    // c-0..c-1799 live (every 100th changed), c-1800.. missing, 100 extraneous.
    const liveObjects = [
      ...Array.from({ length: 1800 }, (_, i) => live(configMap(`c-${i}`, i % 100 === 0 ? 'b' : 'a'))),
      ...Array.from({ length: 100 }, (_, i) => live(configMap(`extra-${i}`, 'a'))),
    ];
    const turns = countEventLoopTurns();
    const sliced = await compareApplicationSliced(targets, liveObjects, 'shop', {}, new TimeSlice(0));
    const turnsCounted = turns.stop();

    expect(sliced).toEqual(compareApplication(targets, liveObjects, 'shop'));
    expect(sliced.differences.map((d) => d.reason).sort()).toEqual(
      [...Array(100).fill('extraneous'), ...Array(18).fill('changed'), ...Array(200).fill('missing')].sort(),
    );
    expect(turnsCounted).toBeGreaterThan(10);
  });

  it('does not report a field the Application ignores (ignoreDifferences), and still reports the others', () => {
    const { rules } = parseIgnoreDifferences([
      { group: 'apps', kind: 'Deployment', jsonPointers: ['/spec/replicas'] },
    ]);
    const scaled = live(deployment(5));
    const targets = [{ object: deployment(2), source }];

    expect(compareApplication(targets, [scaled], 'shop', { ignoreDifferences: rules }).status).toBe('Synced');
    expect(compareApplication(targets, [scaled], 'shop').differences).toEqual([
      expect.objectContaining({ reason: 'changed', path: 'spec.replicas' }),
    ]);
  });

  it('is Synced when every manifest field has its value live, whatever the cluster added', () => {
    const cluster = live(deployment(2));
    (cluster.spec as { strategy?: unknown }).strategy = { type: 'RollingUpdate' };

    expect(compareApplication([{ object: deployment(2), source }], [cluster], 'shop')).toEqual({
      status: 'Synced',
      differences: [],
    });
  });

  it('names the first changed field, and treats "2" and 2 alike', () => {
    const changed = live(deployment(2));
    (
      (changed.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec
        .containers[0] as { image: string }
    ).image = 'web:2';

    expect(compareApplication([{ object: deployment('2'), source }], [changed], 'shop')).toEqual({
      status: 'OutOfSync',
      differences: [
        {
          key: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' },
          reason: 'changed',
          path: 'spec.template.spec.containers[0].image',
        },
      ],
    });
  });

  it('reports missing and extraneous resources, but not hooks or IgnoreExtraneous objects', () => {
    const hook: KubeObject = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'migrate', annotations: { 'argocd.argoproj.io/hook': 'PreSync' } },
    };
    const extra: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'old', namespace: 'shop' },
    };
    const ignored: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'generated',
        namespace: 'shop',
        annotations: { 'argocd.argoproj.io/compare-options': 'IgnoreExtraneous' },
      },
    };

    const result = compareApplication(
      [
        { object: deployment(1), source },
        { object: hook, source },
      ],
      [extra, ignored, live(hook)],
      'shop',
    );

    expect(result.differences.map((d) => `${d.reason}:${d.key.kind}/${d.key.name}`)).toEqual([
      'missing:Deployment/web',
      'extraneous:ConfigMap/old',
    ]);
  });

  it('matches a cluster-scoped live object to a target given the destination namespace', () => {
    const ns: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } };

    expect(
      compareApplication([{ object: ns, source }], [{ ...ns, metadata: { name: 'team', uid: 'u' } }], 'shop')
        .status,
    ).toBe('Synced');
  });

  it('counts the destination Namespace a CreateNamespace=true sync created as part of the Application', () => {
    const ns: KubeObject = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'shop', labels: { 'app.kubernetes.io/instance': 'shop' } },
    };
    const targets = [{ object: deployment(2), source }];
    const lives = [live(deployment(2)), ns];
    expect(compareApplication(targets, lives, 'shop', { createNamespace: true }).status).toBe('Synced');
    expect(compareApplication(targets, lives, 'shop').differences.map((d) => d.reason)).toEqual([
      'extraneous',
    ]);
  });
});
