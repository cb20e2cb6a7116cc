/**
 * The in-memory runtime state of one pod's containers, and the pod status rendered from it (phase,
 * conditions, containerStatuses) as kubelet reports it.
 */

import type { Condition } from '../controllers/controller-context.js';
import { type JsonObject, type KubeObject, timestamp } from '../store/kube-object.js';

type ContainerState =
  | { waiting: { reason: string; message?: string } }
  | { running: { startedAt: string } }
  | {
      terminated: {
        exitCode: number;
        reason: string;
        startedAt: string;
        finishedAt: string;
        containerID: string;
      };
    };

export interface ContainerRuntime {
  name: string;
  image: string;
  state: ContainerState;
  lastState: ContainerState | Record<string, never>;
  restartCount: number;
  /** Started at least once (running or terminated). */
  started: boolean;
  /** Cancels this container's pending timers. */
  cancels: (() => void)[];
  /** Last CreateContainerConfigError/pull message recorded as an Event (to avoid duplicates). */
  reported?: string;
}

export interface PodRuntime {
  uid: string;
  podIP: string;
  startTime?: string;
  containers: ContainerRuntime[];
  /** The last FailedMount message recorded as an Event (to avoid duplicates). */
  mountFailure?: string;
}

export function newContainer(spec: JsonObject): ContainerRuntime {
  return {
    name: String(spec.name),
    image: String(spec.image),
    state: { waiting: { reason: 'ContainerCreating' } },
    lastState: {},
    restartCount: 0,
    started: false,
    cancels: [],
  };
}

function isTerminated(c: ContainerRuntime): boolean {
  return 'terminated' in c.state;
}

/** Pending until every container started; Succeeded/Failed once all ended and none restarts; else Running. */
function podPhase(runtime: PodRuntime, restartPolicy: string): string {
  const { containers } = runtime;
  if (!containers.every((c) => c.started)) return 'Pending';
  const ended = containers.every((c) => isTerminated(c) && !willRestart(c, restartPolicy));
  if (!ended) return 'Running';
  const codes = containers.map((c) => ('terminated' in c.state ? c.state.terminated.exitCode : 0));
  return codes.every((code) => code === 0) ? 'Succeeded' : 'Failed';
}

export function willRestart(c: ContainerRuntime, restartPolicy: string): boolean {
  if (!('terminated' in c.state)) return false;
  return restartPolicy === 'Always' || (restartPolicy === 'OnFailure' && c.state.terminated.exitCode !== 0);
}

export function renderPodStatus(
  pod: KubeObject,
  runtime: PodRuntime,
  restartPolicy: string,
  previous: Condition[],
): JsonObject {
  const phase = podPhase(runtime, restartPolicy);
  const notReady = runtime.containers.filter((c) => !('running' in c.state)).map((c) => c.name);
  const done = phase === 'Succeeded' || phase === 'Failed';
  const ready: Condition = done
    ? { type: 'Ready', status: 'False', reason: 'PodCompleted' }
    : notReady.length === 0
      ? { type: 'Ready', status: 'True' }
      : {
          type: 'Ready',
          status: 'False',
          reason: 'ContainersNotReady',
          message: `containers with unready status: [${notReady.join(' ')}]`,
        };
  const conditions: Condition[] = [
    { type: 'PodReadyToStartContainers', status: 'True' },
    { type: 'Initialized', status: 'True' },
    ready,
    { ...ready, type: 'ContainersReady' },
    { type: 'PodScheduled', status: 'True' },
  ].map((c) => {
    const before = previous.find((p) => p.type === c.type);
    const lastTransitionTime = before && before.status === c.status ? before.lastTransitionTime : timestamp();
    return { ...c, lastProbeTime: null, lastTransitionTime } as Condition;
  });
  return {
    phase,
    conditions,
    hostIP: '172.18.0.2',
    hostIPs: [{ ip: '172.18.0.2' }],
    podIP: runtime.podIP,
    podIPs: [{ ip: runtime.podIP }],
    startTime: runtime.startTime,
    qosClass: 'BestEffort',
    containerStatuses: runtime.containers.map((c) => ({
      name: c.name,
      state: c.state,
      lastState: c.lastState,
      ready: 'running' in c.state,
      restartCount: c.restartCount,
      image: c.image,
      imageID: c.started
        ? `${c.image.includes('/') ? '' : 'docker.io/library/'}${c.image.split(':')[0]}@sha256:${'0'.repeat(64)}`
        : '',
      started: 'running' in c.state,
      ...(c.started
        ? { containerID: `containerd://${pod.metadata.uid?.replace(/-/g, '')}${c.name}`.slice(0, 77) }
        : {}),
    })),
  };
}
