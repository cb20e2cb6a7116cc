import { type KubernetesObject, PatchStrategy } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../index.js';
import { deploymentManifest } from '../testing/manifests.js';
import { useSimulator } from '../testing/use-simulator.js';

const cluster = useSimulator({ speed: 50 });

interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: { type: string; status: string; reason?: string; message?: string }[];
}

const ref = (name: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', name, namespace: 'default' });
const statusOf = (d: KubeObject | undefined) => (d?.status ?? {}) as DeploymentStatus;
const condition = (d: KubeObject | undefined, type: string) =>
  statusOf(d).conditions?.find((c) => c.type === type);
const apply = (obj: object): Promise<KubernetesObject> =>
  cluster.api.objects.patch(
    obj as KubernetesObject,
    undefined,
    undefined,
    'wavesync',
    true,
    PatchStrategy.ServerSideApply,
  );

describe('Deployment controller', () => {
  it('rolls out through a ReplicaSet to ready Pods with Available and Progressing as the real controller writes them', async () => {
    await apply(deploymentManifest('web', { replicas: 2 }));
    const done = await cluster.sim.waitFor(
      ref('web'),
      (d) => condition(d, 'Progressing')?.reason === 'NewReplicaSetAvailable',
    );
    expect(statusOf(done)).toMatchObject({
      observedGeneration: 1,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
    });
    expect(statusOf(done).unavailableReplicas).toBeUndefined();
    expect(condition(done, 'Available')).toMatchObject({
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: 'Deployment has minimum availability.',
    });
    const [rs] = cluster.sim
      .list('apps/v1', 'ReplicaSet', 'default')
      .filter((r) => r.metadata.ownerReferences?.[0]?.name === 'web');
    expect(condition(done, 'Progressing')?.message).toBe(
      `ReplicaSet "${rs?.metadata.name}" has successfully progressed.`,
    );
    expect(rs?.metadata.name).toMatch(/^web-[a-z0-9]{10}$/);
    const pods = cluster.sim
      .list('v1', 'Pod', 'default')
      .filter((p) => p.metadata.ownerReferences?.[0]?.uid === rs?.metadata.uid);
    expect(pods).toHaveLength(2);
    expect(pods[0]?.metadata.labels?.['pod-template-hash']).toBe(rs?.metadata.labels?.['pod-template-hash']);
  });

  it('rolls a new template out to a new ReplicaSet and scales the old one to zero', async () => {
    const updated = await apply(deploymentManifest('web', { replicas: 2, image: 'nginx:2' }));
    expect(updated.metadata?.generation).toBe(2);
    await cluster.sim.waitFor(
      ref('web'),
      (d) =>
        statusOf(d).observedGeneration === 2 &&
        condition(d, 'Progressing')?.reason === 'NewReplicaSetAvailable' &&
        statusOf(d).replicas === 2,
    );
    const sets = cluster.sim
      .list('apps/v1', 'ReplicaSet', 'default')
      .filter((r) => r.metadata.ownerReferences?.[0]?.name === 'web');
    expect(sets.map((r) => (r.spec as { replicas: number }).replicas).sort()).toEqual([0, 2]);
  });

  it('never becomes available with an image that cannot be pulled, and ends with ProgressDeadlineExceeded', async () => {
    await apply(
      deploymentManifest('broken', {
        replicas: 1,
        image: 'nginx:does-not-exist',
        spec: { progressDeadlineSeconds: 30 },
      }),
    );
    const progressing = await cluster.sim.waitFor(
      ref('broken'),
      (d) => condition(d, 'Available')?.status === 'False',
    );
    expect(condition(progressing, 'Available')).toMatchObject({
      reason: 'MinimumReplicasUnavailable',
      message: 'Deployment does not have minimum availability.',
    });
    expect(statusOf(progressing).unavailableReplicas).toBe(1);
    const stuck = await cluster.sim.waitFor(
      ref('broken'),
      (d) => condition(d, 'Progressing')?.status === 'False',
    );
    expect(condition(stuck, 'Progressing')?.reason).toBe('ProgressDeadlineExceeded');
    expect(condition(stuck, 'Progressing')?.message).toMatch(
      /^ReplicaSet "broken-[a-z0-9]{10}" has timed out progressing\.$/,
    );
    const pod = cluster.sim.list('v1', 'Pod', 'default').find((p) => p.metadata.labels?.app === 'broken');
    const state = ((pod?.status as { containerStatuses?: { state: { waiting?: { reason: string } } }[] })
      ?.containerStatuses ?? [])[0]?.state;
    expect(state?.waiting?.reason).toBe('ImagePullBackOff');
  });

  it('lets a test force a status that controllers then leave alone', async () => {
    await apply(deploymentManifest('forced', { replicas: 0 }));
    await cluster.sim.waitFor(ref('forced'), (d) => condition(d, 'Available')?.status === 'True');
    cluster.sim.setCondition(ref('forced'), {
      type: 'Available',
      status: 'False',
      reason: 'MinimumReplicasUnavailable',
      message: 'forced',
    });
    await apply(deploymentManifest('forced', { replicas: 0, image: 'nginx:9' }));
    await new Promise((r) => setTimeout(r, 100));
    expect(condition(cluster.sim.get(ref('forced')), 'Available')).toMatchObject({
      status: 'False',
      message: 'forced',
    });
  });
});
