import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../index.js';
import { useSimulator } from '../testing/use-simulator.js';

const cluster = useSimulator({ speed: 50 });

interface PodStatus {
  phase?: string;
  conditions?: { type: string; status: string; reason?: string }[];
  containerStatuses?: {
    name: string;
    ready: boolean;
    restartCount: number;
    state: Record<string, { reason?: string; message?: string; exitCode?: number }>;
  }[];
}

const podRef = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', name, namespace: 'default' });
const statusOf = (pod: KubeObject | undefined) => (pod?.status ?? {}) as PodStatus;
const phaseIs = (phase: string) => (pod: KubeObject | undefined) => statusOf(pod).phase === phase;
const waitingReason = (pod: KubeObject | undefined) =>
  Object.values(statusOf(pod).containerStatuses?.[0]?.state ?? {})[0]?.reason;

function pod(name: string, container: Record<string, unknown>, restartPolicy = 'Never') {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { restartPolicy, containers: [{ name: 'main', image: 'alpine:3', ...container }] },
  };
}

describe('kubelet', () => {
  it('runs a plain Pod: scheduled, Running, then Succeeded with the echo output in its log', async () => {
    await cluster.api.objects.create(
      pod('echo', { command: ['sh', '-c', 'echo hello; sleep 5; echo done'] }),
    );
    const running = await cluster.sim.waitFor(podRef('echo'), phaseIs('Running'));
    expect(running?.spec).toMatchObject({ nodeName: 'sim-node' });
    expect(statusOf(running).conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    const done = await cluster.sim.waitFor(podRef('echo'), phaseIs('Succeeded'));
    expect(statusOf(done).containerStatuses?.[0]?.state.terminated).toMatchObject({
      exitCode: 0,
      reason: 'Completed',
    });
    expect(statusOf(done).conditions?.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'PodCompleted',
    });
    const log = await fetch(`${cluster.sim.url}/api/v1/namespaces/default/pods/echo/log`).then((r) =>
      r.text(),
    );
    expect(log).toBe('hello\ndone\n');
    const tail = await fetch(
      `${cluster.sim.url}/api/v1/namespaces/default/pods/echo/log?tailLines=1&container=main`,
    ).then((r) => r.text());
    expect(tail).toBe('done\n');
    const reasons = cluster.sim.events('default', 'echo').map((e) => e.reason);
    expect(reasons).toEqual(['Scheduled', 'Pulled', 'Created', 'Started']);
  });

  it('ends Failed with the exit code of `exit N`', async () => {
    await cluster.api.objects.create(pod('fails', { command: ['sh', '-c', 'echo oops && exit 3'] }));
    const failed = await cluster.sim.waitFor(podRef('fails'), phaseIs('Failed'));
    expect(statusOf(failed).containerStatuses?.[0]?.state.terminated).toMatchObject({
      exitCode: 3,
      reason: 'Error',
    });
  });

  it('stays in CreateContainerConfigError while a referenced ConfigMap is missing, and starts once it appears', async () => {
    await cluster.api.objects.create(
      pod('needs-config', {
        command: ['sh', '-c', 'echo $GREETING'],
        envFrom: [{ configMapRef: { name: 'settings' } }],
      }),
    );
    const blocked = await cluster.sim.waitFor(
      podRef('needs-config'),
      (p) => waitingReason(p) === 'CreateContainerConfigError',
    );
    expect(statusOf(blocked).phase).toBe('Pending');
    expect(statusOf(blocked).containerStatuses?.[0]?.state.waiting?.message).toBe(
      'configmap "settings" not found',
    );
    expect(cluster.sim.events('default', 'needs-config').find((e) => e.reason === 'Failed')).toMatchObject({
      type: 'Warning',
      message: 'Error: configmap "settings" not found',
    });
    await cluster.api.objects.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: 'default' },
      data: { GREETING: 'hi' },
    });
    await cluster.sim.waitFor(podRef('needs-config'), phaseIs('Succeeded'));
    expect(cluster.sim.podLog('default', 'needs-config')).toBe('hi\n');
  });

  it("keeps a Pod ContainerCreating with a FailedMount Event while a volume's Secret is missing, and starts it once it appears", async () => {
    const spec = {
      restartPolicy: 'Never',
      containers: [{ name: 'main', image: 'alpine:3', command: ['sh', '-c', 'echo mounted'] }],
      volumes: [
        { name: 'optional', configMap: { name: 'absent', optional: true } },
        { name: 'creds', projected: { sources: [{ secret: { name: 'mount-me' } }] } },
      ],
    };
    await cluster.api.objects.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'needs-volume', namespace: 'default' },
      spec,
    });
    await cluster.sim.waitFor(podRef('needs-volume'), () =>
      cluster.sim.events('default', 'needs-volume').some((e) => e.reason === 'FailedMount'),
    );
    const blocked = cluster.sim.get(podRef('needs-volume')) as KubeObject;
    expect(statusOf(blocked).phase).toBe('Pending');
    expect(waitingReason(blocked)).toBe('ContainerCreating');
    expect(
      cluster.sim.events('default', 'needs-volume').find((e) => e.reason === 'FailedMount'),
    ).toMatchObject({
      type: 'Warning',
      message: 'MountVolume.SetUp failed for volume "creds" : secret "mount-me" not found',
    });
    await cluster.api.objects.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'mount-me', namespace: 'default' },
      data: {},
    });
    await cluster.sim.waitFor(podRef('needs-volume'), phaseIs('Succeeded'));
  });

  it('names a missing Secret key as kubelet does', async () => {
    await cluster.api.objects.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'creds', namespace: 'default' },
      data: { user: Buffer.from('u').toString('base64') },
    });
    await cluster.api.objects.create(
      pod('needs-key', {
        env: [{ name: 'PW', valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } }],
      }),
    );
    const blocked = await cluster.sim.waitFor(
      podRef('needs-key'),
      (p) => waitingReason(p) === 'CreateContainerConfigError',
    );
    expect(statusOf(blocked).containerStatuses?.[0]?.state.waiting?.message).toBe(
      "couldn't find key password in Secret default/creds",
    );
  });

  it('cannot pull an image tagged does-not-exist: ErrImagePull, then ImagePullBackOff', async () => {
    await cluster.api.objects.create(pod('bad-image', { image: 'nginx:does-not-exist' }, 'Always'));
    const pulling = await cluster.sim.waitFor(
      podRef('bad-image'),
      (p) => waitingReason(p) === 'ErrImagePull',
    );
    expect(statusOf(pulling).containerStatuses?.[0]?.state.waiting?.message).toContain(
      'failed to pull and unpack image "docker.io/library/nginx:does-not-exist"',
    );
    await cluster.sim.waitFor(podRef('bad-image'), (p) => waitingReason(p) === 'ImagePullBackOff');
    const reasons = cluster.sim.events('default', 'bad-image').map((e) => `${e.type}/${e.reason}`);
    expect(reasons).toEqual(expect.arrayContaining(['Warning/Failed', 'Normal/BackOff']));
  });

  it('restarts a crashing container under restartPolicy Always with CrashLoopBackOff', async () => {
    await cluster.api.objects.create(pod('crash', { command: ['false'] }, 'Always'));
    const looping = await cluster.sim.waitFor(
      podRef('crash'),
      (p) => waitingReason(p) === 'CrashLoopBackOff',
    );
    expect(statusOf(looping).containerStatuses?.[0]).toMatchObject({ restartCount: 1, ready: false });
    expect(statusOf(looping).phase).toBe('Running');
  });

  it('lets a test make a running Pod fail (terminate helper)', async () => {
    await cluster.api.objects.create(pod('server', { command: ['sleep', 'infinity'] }));
    await cluster.sim.waitFor(podRef('server'), phaseIs('Running'));
    expect(cluster.sim.terminatePod('default', 'server', 137)).toBe(true);
    const killed = await cluster.sim.waitFor(podRef('server'), phaseIs('Failed'));
    expect(statusOf(killed).containerStatuses?.[0]?.state.terminated?.exitCode).toBe(137);
  });

  it('answers log requests for waiting containers and missing pods like the API server', async () => {
    const waiting = await fetch(`${cluster.sim.url}/api/v1/namespaces/default/pods/needs-key/log`);
    expect(waiting.status).toBe(400);
    expect(((await waiting.json()) as { message: string }).message).toBe(
      'container "main" in pod "needs-key" is waiting to start: CreateContainerConfigError',
    );
    expect((await fetch(`${cluster.sim.url}/api/v1/namespaces/default/pods/nope/log`)).status).toBe(404);
  });
});
