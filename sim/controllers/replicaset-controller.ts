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
  startReconciler(ctx, { typeKey: 'apps/replicasets', kind: 'ReplicaSet', childTypeKey: '/pods' }, reconcile);

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

  function writeStatus(rs: KubeObject, pods: KubeObject[]): void {
    const ready = pods.filter(isPodReady).length;
    const status = withoutZeros(
      {
        replicas: pods.length,
        fullyLabeledReplicas: pods.length,
        readyReplicas: ready,
        availableReplicas: ready,
        observedGeneration: rs.metadata.generation,
      },
      ['replicas'],
    );
    const previous = statusOf(rs);
    if (JSON.stringify(previous) === JSON.stringify(status)) return;
    ctx.client.updateStatus({ ...rs, status });
  }
}
