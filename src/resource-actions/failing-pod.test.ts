import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../domain/index.js';
import { currentPods, pickFailingPod, REVISION_ANNOTATION } from './failing-pod.js';
import type { ResourceLine } from './resource-tree.js';

function pod(name: string, statuses: Record<string, unknown>[], phase = 'Running'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'web' },
    status: { phase, containerStatuses: statuses },
  };
}

const ready = { name: 'main', ready: true, restartCount: 0, state: { running: {} } };

describe('src/resource-actions/failing-pod', () => {
  it('prefers CrashLoopBackOff, then not ready, then the most restarts; none failing → undefined', () => {
    const crashing = pod('a', [
      ready,
      { name: 'sidecar', ready: false, restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } } },
    ]);
    const notReady = pod('b', [{ name: 'main', ready: false, restartCount: 0, state: { running: {} } }]);
    const restarted = pod('c', [{ ...ready, restartCount: 9 }]);
    expect(pickFailingPod([restarted, notReady, crashing])).toEqual({
      pod: crashing,
      container: 'sidecar',
      previous: true,
      why: 'CrashLoopBackOff, 3 restarts',
    });
    expect(pickFailingPod([restarted, notReady])).toMatchObject({
      pod: notReady,
      previous: false,
      why: 'not ready',
    });
    expect(pickFailingPod([restarted])).toMatchObject({ pod: restarted, previous: false, why: '9 restarts' });
    expect(pickFailingPod([pod('d', [ready])])).toBeUndefined();
  });

  it("a Deployment's Pods are its current ReplicaSet's (highest revision)", () => {
    const line = (object: KubeObject, depth: number): ResourceLine => ({ object, depth });
    const rs = (name: string, revision: string): KubeObject => ({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name, namespace: 'web', annotations: { [REVISION_ANNOTATION]: revision } },
    });
    const deployment = line({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } }, 0);
    const lines = [
      deployment,
      line(rs('web-old', '9'), 1),
      line(pod('old-1', [ready]), 2),
      line(rs('web-new', '10'), 1),
      line(pod('new-1', [ready]), 2),
      line({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' } }, 0),
    ];
    expect(currentPods(lines, deployment).map((p) => p.metadata.name)).toEqual(['new-1']);
  });
});
