/**
 * What a user needs to debug a hook: the Pods behind it (the hook itself, or the Pods a Job created), the tail of
 * the newest Pod's log, and — after a grace period — why a Pod cannot start (a missing ConfigMap/Secret, an image
 * that cannot be pulled). Argo CD waits forever on such a hook; wavesync fails it with the reason.
 */
import type { KubeObject } from '../../domain/index.js';
import type { ObjectRef } from '../cluster.js';
import { podsOfWorkload } from '../health/stuck-pods.js';
import { messageOf } from '../retry.js';
import type { SyncContext } from '../sync-context.js';

/** Container waiting reasons that mean "this Pod will not start without someone fixing something". */
const CANNOT_START_REASONS = new Set([
  'CreateContainerConfigError',
  'CreateContainerError',
  'ImagePullBackOff',
  'ErrImagePull',
  'ErrImageNeverPull',
  'InvalidImageName',
]);

interface ContainerStatus {
  name?: string;
  state?: { waiting?: { reason?: string; message?: string } };
}

function byCreation(a: KubeObject, b: KubeObject): number {
  return (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '');
}

/**
 * The Pods of a hook (oldest first): the hook itself if it is a Pod, else the Pods its Job owns — from the
 * watch-fed cache when it has them, else listed from the API server.
 */
export async function hookPodsOf(
  ctx: SyncContext,
  ref: ObjectRef,
  live: KubeObject | undefined,
): Promise<KubeObject[]> {
  if (ref.kind === 'Pod') return live ? [live] : [];
  if (ref.kind !== 'Job') return [];
  const job = live ?? {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: ref.name, namespace: ref.namespace },
  };
  const inNamespace = (o: KubeObject) => o.kind === 'Pod' && (o.metadata.namespace ?? '') === ref.namespace;
  const cached = podsOfWorkload(job, ctx.live.find(inNamespace));
  const pods =
    cached.length > 0
      ? cached
      : podsOfWorkload(
          job,
          await ctx.cluster.list({ apiVersion: 'v1', kind: 'Pod', namespace: ref.namespace }),
        );
  return pods.sort(byCreation);
}

/** The reason a Pod cannot start, e.g. `CreateContainerConfigError: configmap "rails-env" not found`. */
export function cannotStartReason(pod: KubeObject): string | undefined {
  const status = pod.status as {
    initContainerStatuses?: ContainerStatus[];
    containerStatuses?: ContainerStatus[];
  };
  for (const ctr of [...(status?.initContainerStatuses ?? []), ...(status?.containerStatuses ?? [])]) {
    const waiting = ctr.state?.waiting;
    if (waiting?.reason && CANNOT_START_REASONS.has(waiting.reason)) {
      const detail = waiting.message ? `: ${waiting.message}` : '';
      return `Pod ${pod.metadata.name ?? ''} cannot start: ${waiting.reason}${detail}`;
    }
  }
  return undefined;
}

/** The last lines of the newest hook Pod's log ([] when there is none or it cannot be read). */
export async function hookLogTail(ctx: SyncContext, pods: KubeObject[]): Promise<string[]> {
  const pod = pods.at(-1);
  if (pod === undefined) return [];
  try {
    return await ctx.cluster.podLogs(pod.metadata.namespace ?? '', pod.metadata.name ?? '', {
      tailLines: ctx.options.logTailLines,
    });
  } catch (error) {
    ctx.logger.warn({ pod: pod.metadata.name, error: messageOf(error) }, 'cannot read hook pod logs');
    return [];
  }
}
