/**
 * Why the Pods of a task (a hook, or a resource the wave waits on) do not start, in words a user can act on:
 * a missing ConfigMap/Secret/ServiceAccount/PVC the Pod reads (kubelet's CreateContainerConfigError, or a volume
 * that cannot be mounted — FailedMount, the container stays ContainerCreating), an image that cannot be pulled,
 * a crash loop. Argo CD waits on such a Pod until the operation times out; wavesync names it (`waitReasonOf`) and
 * fails it (`refresh-tasks.ts`): at once when this sync creates the missing object only in a later step, after
 * the start grace when the object is not in this sync at all. `optional: true` references never count.
 */
import type { KubeObject } from '../../domain/index.js';
import type { SyncContext } from '../sync-context.js';
import { type PodReference, podReferencesOf, podSpecOf } from './pod-references.js';

interface ContainerStatus {
  name?: string;
  ready?: boolean;
  restartCount?: number;
  state?: { waiting?: { reason?: string; message?: string } };
}

/** A Pod that cannot start because an object it reads does not exist. */
export interface MissingReference {
  pod: string;
  /** The container that waits for it (for a volume: the first container that mounts it). */
  container: string | undefined;
  ref: PodReference;
}

function statusesOf(pod: KubeObject): ContainerStatus[] {
  const status = pod.status as
    | { initContainerStatuses?: ContainerStatus[]; containerStatuses?: ContainerStatus[] }
    | undefined;
  return [...(status?.initContainerStatuses ?? []), ...(status?.containerStatuses ?? [])];
}

/** True for a Pod whose containers have not all started yet (Pending). */
function isNotStarted(pod: KubeObject): boolean {
  if (pod.metadata.deletionTimestamp !== undefined) return false;
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  return phase === undefined || phase === 'Pending';
}

function matchesSelector(pod: KubeObject, selector: Record<string, string>): boolean {
  const labels = pod.metadata.labels ?? {};
  const entries = Object.entries(selector);
  return entries.length > 0 && entries.every(([k, v]) => labels[k] === v);
}

/**
 * The Pods of a live workload among `pods` (the Pods of its namespace): the object itself for a Pod, the Pods its
 * Job created (job-name label or owner), the Pods matching a Deployment/StatefulSet/DaemonSet/ReplicaSet's
 * `spec.selector.matchLabels`. [] for other kinds.
 */
export function podsOfWorkload(obj: KubeObject, pods: readonly KubeObject[]): KubeObject[] {
  if (obj.kind === 'Pod') return [obj];
  const name = obj.metadata.name ?? '';
  if (obj.kind === 'Job') {
    const uid = obj.metadata.uid;
    return pods.filter((p) => {
      const labels = p.metadata.labels ?? {};
      const owned = (p.metadata.ownerReferences ?? []).some((o) => o.kind === 'Job' && o.uid === uid);
      return owned || labels['job-name'] === name || labels['batch.kubernetes.io/job-name'] === name;
    });
  }
  if (!['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet'].includes(obj.kind)) return [];
  const selector = (obj.spec as { selector?: { matchLabels?: Record<string, string> } } | undefined)?.selector
    ?.matchLabels;
  return selector ? pods.filter((p) => matchesSelector(p, selector)) : [];
}

interface ContainerSpec {
  name?: string;
  image?: string;
  volumeMounts?: { name?: string }[];
}

function containersOf(pod: KubeObject): ContainerSpec[] {
  const spec = podSpecOf(pod) as
    | { containers?: ContainerSpec[]; initContainers?: ContainerSpec[] }
    | undefined;
  return [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
}

function containerFor(pod: KubeObject, ref: PodReference): string | undefined {
  if (ref.container !== undefined) return ref.container;
  const containers = containersOf(pod);
  const volume = ref.via.startsWith('volume ') ? ref.via.slice('volume '.length) : undefined;
  const mounting = containers.find((c) => c.volumeMounts?.some((m) => m.name === volume));
  return (mounting ?? containers[0])?.name;
}

/**
 * True when the kubelet (or scheduler) shows that `ref` holds the Pod back, not merely that the Pod is young: an
 * env reference → the container waits with CreateContainerConfigError; a volume → it waits (ContainerCreating,
 * FailedMount); a claim → the Pod is not scheduled or waits; a ServiceAccount → any wait. A missing image pull
 * Secret never holds a Pod back (the kubelet pulls anonymously), so it never counts.
 */
function holdsBack(pod: KubeObject, container: string | undefined, ref: PodReference): boolean {
  if (ref.via === 'imagePullSecrets') return false;
  const waiting = statusesOf(pod).find((c) => c.name === container)?.state?.waiting;
  if (ref.via === 'envFrom' || ref.via.startsWith('env '))
    return waiting?.reason === 'CreateContainerConfigError';
  if (waiting !== undefined) return true;
  const conditions = (pod.status as { conditions?: { type?: string; status?: string }[] } | undefined)
    ?.conditions;
  return (
    ref.kind === 'PersistentVolumeClaim' &&
    conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False') === true
  );
}

/**
 * The first non-optional object a not-started Pod reads that does not exist and that the kubelet shows holds it
 * back (holdsBack), or undefined. Cost: one cached GET per distinct reference.
 */
export async function missingReferenceOf(
  ctx: SyncContext,
  pod: KubeObject,
): Promise<MissingReference | undefined> {
  if (!isNotStarted(pod)) return undefined;
  const namespace = pod.metadata.namespace ?? '';
  for (const ref of podReferencesOf(pod)) {
    if (ref.optional) continue;
    const container = containerFor(pod, ref);
    if (!holdsBack(pod, container, ref)) continue;
    const live = await ctx.live.get({ apiVersion: 'v1', kind: ref.kind, namespace, name: ref.name });
    if (live === undefined) return { pod: pod.metadata.name ?? '', container, ref };
  }
  return undefined;
}

/** `Pod migrate-x7k2p (container migrate)` */
export function podLabelOf(missing: Pick<MissingReference, 'pod' | 'container'>): string {
  return `Pod ${missing.pod}${missing.container ? ` (container ${missing.container})` : ''}`;
}

function podWaitingReason(pods: readonly KubeObject[]): string | undefined {
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp !== undefined) continue;
    for (const status of statusesOf(pod)) {
      const waiting = status.state?.waiting;
      if (!waiting?.reason || waiting.reason === 'ContainerCreating' || waiting.reason === 'PodInitializing')
        continue;
      if (waiting.reason === 'ImagePullBackOff' || waiting.reason === 'ErrImagePull') {
        const image = imageOf(pod, status.name);
        return `${waiting.reason}${image ? ` (${image})` : ''}`;
      }
      if (waiting.reason === 'CrashLoopBackOff')
        return `CrashLoopBackOff (container ${status.name ?? '?'} restarted ${status.restartCount ?? 0} times)`;
      return `${waiting.reason}${waiting.message ? ` (${waiting.message})` : ''}`;
    }
  }
  return undefined;
}

function imageOf(pod: KubeObject, container: string | undefined): string | undefined {
  return containersOf(pod).find((c) => c.name === container)?.image;
}

function readyCountOf(obj: KubeObject): string | undefined {
  const spec = obj.spec as { replicas?: number } | undefined;
  const status = obj.status as
    | { readyReplicas?: number; numberReady?: number; desiredNumberScheduled?: number }
    | undefined;
  if (obj.kind === 'DaemonSet')
    return `${status?.numberReady ?? 0}/${status?.desiredNumberScheduled ?? 0} ready`;
  if (['Deployment', 'StatefulSet', 'ReplicaSet'].includes(obj.kind))
    return `${status?.readyReplicas ?? 0}/${spec?.replicas ?? 1} ready`;
  return undefined;
}

/**
 * Why a waiting workload is not done yet, e.g. `Deployment/web 0/1 ready: ImagePullBackOff
 * (registry.example/app:does-not-exist)`; `fallback` (its health message) when its Pods say nothing specific.
 */
export function waitReasonOf(obj: KubeObject, pods: readonly KubeObject[], fallback: string): string {
  const count = readyCountOf(obj);
  const why = podWaitingReason(pods) ?? fallback;
  const head = `${obj.kind}/${obj.metadata.name ?? ''}${count ? ` ${count}` : ''}`;
  return why ? `${head}: ${why}` : head;
}

/**
 * The Pods of `namespace`, read once per `memo` (a pass, or one look of the app-health wait): from the live cache
 * when it holds any (Pods of the sync's namespaces are watched), else one LIST ([] when it fails).
 */
export function podsOfNamespace(
  ctx: SyncContext,
  memo: Map<string, Promise<KubeObject[]>>,
  namespace: string,
): Promise<KubeObject[]> {
  let pods = memo.get(namespace);
  if (pods === undefined) {
    const cached = ctx.live.find((o) => o.kind === 'Pod' && (o.metadata.namespace ?? '') === namespace);
    pods =
      cached.length > 0
        ? Promise.resolve(cached)
        : ctx.cluster.list({ apiVersion: 'v1', kind: 'Pod', namespace }).catch(() => []);
    memo.set(namespace, pods);
  }
  return pods;
}
