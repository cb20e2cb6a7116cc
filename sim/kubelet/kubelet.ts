/**
 * The simulated node agent (`sim-node`): schedules each Pod, mounts its ConfigMap/Secret volumes (FailedMount,
 * containers ContainerCreating, while one is missing), resolves its env (CreateContainerConfigError while
 * a referenced ConfigMap/Secret is missing, retried when one appears), "pulls" images (tag `does-not-exist` →
 * ErrImagePull → ImagePullBackOff), runs each container's command by the convention of command-program.ts,
 * restarts per restartPolicy with CrashLoopBackOff back-off, writes Pod status and records Events.
 */
import { randomSuffix } from '../api/object-api.js';
import { NODE_NAME } from '../controllers/bootstrap.js';
import {
  type Condition,
  type ControllerContext,
  onTypes,
  statusOf,
} from '../controllers/controller-context.js';
import { keyOf, splitKey, WorkQueue } from '../controllers/work-queue.js';
import { type JsonObject, type KubeObject, timestamp } from '../store/kube-object.js';
import { programOf } from './command-program.js';
import { resolveEnv, unmountableVolume } from './container-env.js';
import {
  type ContainerRuntime,
  newContainer,
  type PodRuntime,
  renderPodStatus,
  willRestart,
} from './container-state.js';

const SCHEDULE_SECONDS = 0.1;
const PULL_SECONDS = 0.3;
const BACKOFF_BASE_SECONDS = 10;

export interface KubeletHandle {
  /** Make a container exit now with exitCode (default: the first container). Returns false if not running. */
  terminate(namespace: string, pod: string, exitCode: number, container?: string): boolean;
}

const COMPONENT = 'kubelet';

export function kubelet(ctx: ControllerContext): KubeletHandle {
  const runtimes = new Map<string, PodRuntime>();
  const scheduling = new Set<string>();
  let nextIp = 2;
  const queue = new WorkQueue(
    (key) => reconcile(key),
    (key, error) => ctx.logger.warn({ key, err: error }, 'kubelet reconcile failed'),
  );
  onTypes(ctx, ['/pods'], (e) => {
    if (e.type === 'DELETED') stop(runtimes.get(e.object.metadata.uid ?? ''), runtimes);
    else queue.add(keyOf(e.object.metadata.namespace, e.object.metadata.name));
  });
  onTypes(ctx, ['/configmaps', '/secrets'], (e) => {
    for (const pod of ctx.client.list('v1', 'Pod', e.object.metadata.namespace))
      queue.add(keyOf(pod.metadata.namespace, pod.metadata.name));
  });

  function reconcile(key: string): void {
    const { namespace, name } = splitKey(key);
    const pod = ctx.client.get('v1', 'Pod', namespace, name);
    if (!pod || ctx.isPinned(pod)) return;
    const spec = pod.spec as { nodeName?: string; containers: JsonObject[]; restartPolicy?: string };
    if (!spec.nodeName) {
      schedule(pod);
      return;
    }
    let runtime = runtimes.get(pod.metadata.uid ?? '');
    if (!runtime) {
      nextIp += 1;
      runtime = {
        uid: pod.metadata.uid ?? '',
        podIP: `10.244.0.${nextIp % 250}`,
        startTime: timestamp(),
        containers: spec.containers.map(newContainer),
      };
      runtimes.set(runtime.uid, runtime);
    }
    if (pod.metadata.deletionTimestamp) {
      kill(pod, runtime);
      return;
    }
    const unmountable = runtime.containers.some((c) => !c.started)
      ? unmountableVolume(ctx.client, pod)
      : undefined;
    if (unmountable !== undefined) {
      // Volumes are set up before any container is created: everything stays ContainerCreating (FailedMount).
      for (const container of runtime.containers)
        if (!container.started) container.state = { waiting: { reason: 'ContainerCreating' } };
      if (runtime.mountFailure !== unmountable) {
        runtime.mountFailure = unmountable;
        ctx.events.warning(pod, 'FailedMount', unmountable, COMPONENT);
      }
      writeStatus(pod, runtime);
      return;
    }
    for (const [i, container] of runtime.containers.entries()) {
      if (!container.started && container.cancels.length === 0)
        tryStart(pod, runtime, container, spec.containers[i] as JsonObject);
    }
    writeStatus(pod, runtime);
  }

  function schedule(pod: KubeObject): void {
    if (scheduling.has(pod.metadata.uid ?? '')) return;
    scheduling.add(pod.metadata.uid ?? '');
    ctx.scheduler.after(SCHEDULE_SECONDS, () => {
      scheduling.delete(pod.metadata.uid ?? '');
      const live = ctx.client.get('v1', 'Pod', pod.metadata.namespace, pod.metadata.name ?? '');
      if (!live || (live.spec as { nodeName?: string }).nodeName) return;
      (live.spec as { nodeName?: string }).nodeName = NODE_NAME;
      live.status = {
        phase: 'Pending',
        conditions: [
          { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: timestamp() },
        ],
        qosClass: 'BestEffort',
      };
      const bound = ctx.client.update(live);
      ctx.client.updateStatus({ ...bound, status: live.status });
      ctx.events.normal(
        bound,
        'Scheduled',
        `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${NODE_NAME}`,
        'default-scheduler',
      );
    });
  }

  function tryStart(
    pod: KubeObject,
    runtime: PodRuntime,
    container: ContainerRuntime,
    spec: JsonObject,
  ): void {
    const env = resolveEnv(ctx.client, pod, spec);
    if ('error' in env) {
      container.state = { waiting: { reason: 'CreateContainerConfigError', message: env.error } };
      report(pod, container, `Error: ${env.error}`, 'Failed');
      return;
    }
    if (container.image.endsWith(':does-not-exist')) {
      failPull(pod, container);
      return;
    }
    container.cancels.push(
      ctx.scheduler.after(PULL_SECONDS, () => {
        container.cancels = [];
        if (spec.imagePullPolicy === 'Always')
          ctx.events.normal(
            pod,
            'Pulled',
            `Successfully pulled image "${container.image}" in 300ms (300ms including waiting). Image size: 0 bytes.`,
            COMPONENT,
          );
        else
          ctx.events.normal(
            pod,
            'Pulled',
            `Container image "${container.image}" already present on machine`,
            COMPONENT,
          );
        run(pod, runtime, container, spec, env.env);
      }),
    );
  }

  function failPull(pod: KubeObject, container: ContainerRuntime): void {
    const ref = `${container.image.includes('/') ? '' : 'docker.io/library/'}${container.image}`;
    const message = `rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`;
    container.state = { waiting: { reason: 'ErrImagePull', message } };
    if (container.reported !== 'ErrImagePull') {
      container.reported = 'ErrImagePull';
      ctx.events.warning(pod, 'Failed', `Failed to pull image "${container.image}": ${message}`, COMPONENT);
      ctx.events.warning(pod, 'Failed', 'Error: ErrImagePull', COMPONENT);
    }
    container.cancels.push(
      ctx.scheduler.after(1, () => {
        container.state = {
          waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${container.image}"` },
        };
        ctx.events.normal(pod, 'BackOff', `Back-off pulling image "${container.image}"`, COMPONENT);
        ctx.events.warning(pod, 'Failed', 'Error: ImagePullBackOff', COMPONENT);
        refresh(pod);
      }),
    );
  }

  function run(
    pod: KubeObject,
    runtime: PodRuntime,
    container: ContainerRuntime,
    spec: JsonObject,
    env: Record<string, string>,
  ): void {
    const restartPolicy = (pod.spec as { restartPolicy?: string }).restartPolicy ?? 'Always';
    const argv = [...((spec.command ?? []) as string[]), ...((spec.args ?? []) as string[])];
    const program = programOf(argv, env, restartPolicy === 'Always');
    const startedAt = timestamp();
    container.state = { running: { startedAt } };
    container.started = true;
    ctx.events.normal(pod, 'Created', `Created container: ${container.name}`, COMPONENT);
    ctx.events.normal(pod, 'Started', `Started container ${container.name}`, COMPONENT);
    for (const log of program.logs) {
      const append = () => ctx.logs.append(pod, container.name, log.line);
      if (log.at === 0) append();
      else container.cancels.push(ctx.scheduler.after(log.at, append));
    }
    if (Number.isFinite(program.seconds)) {
      container.cancels.push(
        ctx.scheduler.after(Math.max(program.seconds, 0.05), () =>
          exit(pod, runtime, container, spec, program.exitCode),
        ),
      );
    }
    refresh(pod);
  }

  function exit(
    pod: KubeObject,
    runtime: PodRuntime,
    container: ContainerRuntime,
    spec: JsonObject,
    exitCode: number,
  ): void {
    for (const cancel of container.cancels) cancel();
    container.cancels = [];
    const startedAt = 'running' in container.state ? container.state.running.startedAt : timestamp();
    const containerID = `containerd://${randomSuffix(12)}`;
    container.state = {
      terminated: {
        exitCode,
        reason: exitCode === 0 ? 'Completed' : 'Error',
        startedAt,
        finishedAt: timestamp(),
        containerID,
      },
    };
    const restartPolicy = (pod.spec as { restartPolicy?: string }).restartPolicy ?? 'Always';
    if (willRestart(container, restartPolicy)) {
      const delay = Math.min(BACKOFF_BASE_SECONDS * 2 ** container.restartCount, 300);
      container.lastState = container.state;
      container.restartCount += 1;
      ctx.logs.terminated(pod, container.name);
      container.state = {
        waiting: {
          reason: 'CrashLoopBackOff',
          message: `back-off ${delay}s restarting failed container=${container.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
        },
      };
      ctx.events.warning(
        pod,
        'BackOff',
        `Back-off restarting failed container ${container.name} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
        COMPONENT,
      );
      container.cancels.push(
        ctx.scheduler.after(delay, () => {
          container.cancels = [];
          const live = ctx.client.get('v1', 'Pod', pod.metadata.namespace, pod.metadata.name ?? '');
          if (!live) return;
          const env = resolveEnv(ctx.client, live, spec);
          ctx.logs.restarted(live, container.name);
          run(live, runtime, container, spec, 'env' in env ? env.env : {});
        }),
      );
    }
    refresh(pod);
  }

  function kill(pod: KubeObject, runtime: PodRuntime): void {
    for (const c of runtime.containers) {
      for (const cancel of c.cancels) cancel();
      c.cancels = [];
      if ('running' in c.state) {
        ctx.events.normal(pod, 'Killing', `Stopping container ${c.name}`, COMPONENT);
        c.state = {
          terminated: {
            exitCode: 137,
            reason: 'Error',
            startedAt: c.state.running.startedAt,
            finishedAt: timestamp(),
            containerID: `containerd://${randomSuffix(12)}`,
          },
        };
      }
    }
    writeStatus(pod, runtime);
  }

  function report(pod: KubeObject, container: ContainerRuntime, message: string, reason: string): void {
    if (container.reported === message) return;
    container.reported = message;
    ctx.events.warning(pod, reason, message, COMPONENT);
  }

  function refresh(pod: KubeObject): void {
    const live = ctx.client.get('v1', 'Pod', pod.metadata.namespace, pod.metadata.name ?? '');
    const runtime = live && runtimes.get(live.metadata.uid ?? '');
    if (live && runtime && !ctx.isPinned(live)) writeStatus(live, runtime);
  }

  function writeStatus(pod: KubeObject, runtime: PodRuntime): void {
    const restartPolicy = (pod.spec as { restartPolicy?: string }).restartPolicy ?? 'Always';
    const previous = (statusOf(pod).conditions ?? []) as Condition[];
    ctx.client.updateStatus({ ...pod, status: renderPodStatus(pod, runtime, restartPolicy, previous) });
  }

  return {
    terminate(namespace, name, exitCode, containerName) {
      const pod = ctx.client.get('v1', 'Pod', namespace, name);
      const runtime = pod && runtimes.get(pod.metadata.uid ?? '');
      const index =
        runtime?.containers.findIndex((c) => containerName === undefined || c.name === containerName) ?? -1;
      const container = runtime?.containers[index];
      if (!pod || !runtime || !container || !('running' in container.state)) return false;
      exit(
        pod,
        runtime,
        container,
        ((pod.spec as { containers: JsonObject[] }).containers[index] ?? {}) as JsonObject,
        exitCode,
      );
      return true;
    },
  };
}

function stop(runtime: PodRuntime | undefined, runtimes: Map<string, PodRuntime>): void {
  if (!runtime) return;
  for (const c of runtime.containers) for (const cancel of c.cancels) cancel();
  runtimes.delete(runtime.uid);
}
