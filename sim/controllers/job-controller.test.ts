import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../index.js';
import { useSimulator } from '../testing/use-simulator.js';

const cluster = useSimulator({ speed: 50 });

interface JobStatus {
  conditions?: { type: string; status: string; reason?: string; message?: string }[];
  succeeded?: number;
  failed?: number;
  active?: number;
  ready?: number;
  startTime?: string;
  completionTime?: string;
}

const jobRef = (name: string) => ({ apiVersion: 'batch/v1', kind: 'Job', name, namespace: 'default' });
const statusOf = (job: KubeObject | undefined) => (job?.status ?? {}) as JobStatus;
const hasCondition = (type: string) => (job: KubeObject | undefined) =>
  (statusOf(job).conditions ?? []).some((c) => c.type === type && c.status === 'True');

function job(name: string, command: string[], spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default' },
    spec: {
      template: {
        spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'alpine:3', command }] },
      },
      ...spec,
    },
  };
}

describe('Job controller', () => {
  it('completes with SuccessCriteriaMet + Complete, succeeded 1, startTime and completionTime', async () => {
    const created = await cluster.api.objects.create(job('ok', ['sleep', '10']) as KubernetesObject);
    expect((created as { spec?: { selector?: unknown } }).spec?.selector).toEqual({
      matchLabels: { 'batch.kubernetes.io/controller-uid': created.metadata?.uid },
    });
    const running = await cluster.sim.waitFor(jobRef('ok'), (j) => statusOf(j).active === 1);
    expect(statusOf(running).startTime).toBeDefined();
    const done = await cluster.sim.waitFor(jobRef('ok'), hasCondition('Complete'));
    const status = statusOf(done);
    expect(status.conditions?.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['SuccessCriteriaMet', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'],
      ['Complete', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods'],
    ]);
    expect(status).toMatchObject({ succeeded: 1, ready: 0 });
    expect(status.active).toBeUndefined();
    expect(status.completionTime).toBeDefined();
    const pods = cluster.sim
      .list('v1', 'Pod', 'default')
      .filter((p) => p.metadata.labels?.['job-name'] === 'ok');
    expect(pods).toHaveLength(1);
    expect(pods[0]?.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'Job',
      name: 'ok',
      controller: true,
      blockOwnerDeletion: true,
    });
  });

  it('retries failed Pods and fails with BackoffLimitExceeded after backoffLimit', async () => {
    await cluster.api.objects.create(job('flaky', ['sh', '-c', 'echo trying; exit 1'], { backoffLimit: 1 }));
    const failed = await cluster.sim.waitFor(jobRef('flaky'), hasCondition('Failed'), 15_000);
    expect(statusOf(failed).conditions?.map((c) => [c.type, c.reason])).toEqual([
      ['FailureTarget', 'BackoffLimitExceeded'],
      ['Failed', 'BackoffLimitExceeded'],
    ]);
    expect(statusOf(failed).failed).toBe(2);
    expect(cluster.sim.events('default', 'flaky').map((e) => e.reason)).toEqual(
      expect.arrayContaining(['SuccessfulCreate', 'BackoffLimitExceeded']),
    );
  });

  it('fails with DeadlineExceeded after activeDeadlineSeconds and stops its Pod', async () => {
    await cluster.api.objects.create(job('slow', ['sleep', '1000'], { activeDeadlineSeconds: 20 }));
    const failed = await cluster.sim.waitFor(jobRef('slow'), hasCondition('Failed'));
    expect(statusOf(failed).conditions?.at(-1)).toMatchObject({
      reason: 'DeadlineExceeded',
      message: 'Job was active longer than specified deadline',
    });
    await cluster.sim.waitFor(
      { apiVersion: 'v1', kind: 'Pod', name: 'x', namespace: 'default' },
      () =>
        cluster.sim.list('v1', 'Pod', 'default').filter((p) => p.metadata.labels?.['job-name'] === 'slow')
          .length === 0,
    );
  });

  it('deletes a finished Job after ttlSecondsAfterFinished', async () => {
    await cluster.api.objects.create(job('ttl', ['true'], { ttlSecondsAfterFinished: 5 }));
    await cluster.sim.waitFor(jobRef('ttl'), hasCondition('Complete'));
    await cluster.sim.waitFor(jobRef('ttl'), (j) => j === undefined);
  });
});
