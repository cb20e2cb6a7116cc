/**
 * apps/v1 ReplicaSet controller: keeps `spec.replicas` active Pods (named `<rs>-<5 chars>`), replaces Pods that
 * ended, deletes surplus ones (not-ready first), and reports replicas / fullyLabeledReplicas / readyReplicas /
 * availableReplicas / observedGeneration (zero counters omitted, as apps/v1 serializes them).
 */
import { randomSuffix } from '../api/object-api.js';
import type { JsonObject, KubeObject } from '../store/kube-object.js';
import { type ControllerContext, statusOf } from './controller-context.js';
import { isControlledBy, isPodActive, isPodReady, podFromTemplate, withoutZeros } from './owned-objects.js';
import { startReconciler } from './reconciler.js';
import { splitKey } from './work-queue.js';

const COMPONENT = 'replicaset-controller';

export function replicaSetController(ctx: ControllerContext): void {
  const queue = startReconciler(
    ctx,
    { typeKey: 'apps/replicasets', kind: 'ReplicaSet', childTypeKey: '/pods' },
    reconcile,
  );

  /** When each Pod (uid) was first seen Ready, in simulated seconds: `minReadySeconds` counts from there. */
  const readySince = new Map<string, number>();

  function reconcile(key: string): void {
    const { namespace, name } = splitKey(key);
    const rs = ctx.client.get('apps/v1', 'ReplicaSet', namespace, name);
    if (!rs || rs.metadata.deletionTimestamp) return;
    const spec = rs.spec as { replicas?: number; template: JsonObject; minReadySeconds?: number };
    const owned = ctx.client.list('v1', 'Pod', namespace).filter((p) => isControlledBy(p, rs));
    for (const ended of owned.filter((p) => !isPodActive(p) && !p.metadata.deletionTimestamp)) {
      ctx.client.delete({ apiVersion: 'v1', kind: 'Pod', name: ended.metadata.name ?? '', namespace });
    }
    const active = owned.filter(isPodActive);
    const desired = spec.replicas ?? 1;
    for (let i = active.length; i < desired; i += 1) {
      const pod = ctx.client.create(podFromTemplate(rs, spec.template, `${name}-${randomSuffix()}`));
      ctx.events.normal(rs, 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`, COMPONENT);
    }
    const surplus = [...active]
      .sort((a, b) => Number(isPodReady(a)) - Number(isPodReady(b)))
      .slice(0, Math.max(active.length - desired, 0));
    for (const pod of surplus) {
      ctx.client.delete({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', namespace });
      ctx.events.normal(rs, 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`, COMPONENT);
    }
    if (ctx.isPinned(rs)) return;
    writeStatus(
      rs,
      ctx.client.list('v1', 'Pod', namespace).filter((p) => isControlledBy(p, rs) && isPodActive(p)),
    );
  }

  /**
   * Pods Ready for at least `minReadySeconds` (the ReplicaSet controller's availability): a Pod that is Ready for
   * less is not available yet, and the ReplicaSet is looked at again when it would be.
   */
  function availableOf(rs: KubeObject, ready: KubeObject[]): number {
    const minReady = (rs.spec as { minReadySeconds?: number }).minReadySeconds ?? 0;
    const now = ctx.scheduler.now();
    let available = 0;
    let soonest = Number.POSITIVE_INFINITY;
    for (const pod of ready) {
      const uid = pod.metadata.uid ?? '';
      const since = readySince.get(uid) ?? now;
      readySince.set(uid, since);
      const left = since + minReady - now;
      if (left <= 0) available += 1;
      else soonest = Math.min(soonest, left);
    }
    if (Number.isFinite(soonest)) {
      const key = `${rs.metadata.namespace ?? ''}/${rs.metadata.name ?? ''}`;
      ctx.scheduler.after(soonest + 0.01, () => queue.add(key));
    }
    return available;
  }

  function writeStatus(rs: KubeObject, pods: KubeObject[]): void {
    const readyPods = pods.filter(isPodReady);
    for (const pod of pods) if (!isPodReady(pod)) readySince.delete(pod.metadata.uid ?? '');
    const ready = readyPods.length;
    const status = withoutZeros(
      {
        replicas: pods.length,
        fullyLabeledReplicas: pods.length,
        readyReplicas: ready,
        availableReplicas: availableOf(rs, readyPods),
        observedGeneration: rs.metadata.generation,
      },
      ['replicas'],
    );
    const previous = statusOf(rs);
    if (JSON.stringify(previous) === JSON.stringify(status)) return;
    ctx.client.updateStatus({ ...rs, status });
  }
}
