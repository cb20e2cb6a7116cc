/**
 * apps/v1 DaemonSet controller for the single node `sim-node`: one Pod per DaemonSet, replaced when the template
 * changes (RollingUpdate) or when it ended. Status: desiredNumberScheduled, currentNumberScheduled,
 * numberMisscheduled, numberReady, numberAvailable, numberUnavailable, updatedNumberScheduled,
 * observedGeneration.
 */
import { randomSuffix } from '../api/object-api.js';
import type { JsonObject, KubeObject } from '../store/kube-object.js';
import { type ControllerContext, statusOf } from './controller-context.js';
import { isControlledBy, isPodActive, isPodReady, podFromTemplate, templateHash } from './owned-objects.js';
import { startReconciler } from './reconciler.js';
import { splitKey } from './work-queue.js';

const COMPONENT = 'daemonset-controller';
const REVISION_LABEL = 'controller-revision-hash';

export function daemonSetController(ctx: ControllerContext): void {
  startReconciler(ctx, { typeKey: 'apps/daemonsets', kind: 'DaemonSet', childTypeKey: '/pods' }, reconcile);

  function reconcile(key: string): void {
    const { namespace, name } = splitKey(key);
    const ds = ctx.client.get('apps/v1', 'DaemonSet', namespace, name);
    if (!ds || ds.metadata.deletionTimestamp || ctx.isPinned(ds)) return;
    const template = (ds.spec as { template: JsonObject }).template;
    const hash = templateHash(template);
    const owned = ctx.client
      .list('v1', 'Pod', namespace)
      .filter((p) => isControlledBy(p, ds) && !p.metadata.deletionTimestamp);
    for (const pod of owned) {
      if (!isPodActive(pod) || pod.metadata.labels?.[REVISION_LABEL] !== hash)
        ctx.client.delete({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', namespace });
    }
    const current = owned.filter((p) => isPodActive(p) && p.metadata.labels?.[REVISION_LABEL] === hash);
    if (
      current.length === 0 &&
      owned.every((p) => p.metadata.labels?.[REVISION_LABEL] === hash || !isPodActive(p))
    ) {
      const pod = ctx.client.create(
        podFromTemplate(ds, template, `${name}-${randomSuffix()}`, {
          [REVISION_LABEL]: hash,
          'pod-template-generation': String(ds.metadata.generation ?? 1),
        }),
      );
      ctx.events.normal(ds, 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`, COMPONENT);
    }
    writeStatus(ds, hash);
  }

  function writeStatus(ds: KubeObject, hash: string): void {
    const pods = ctx.client
      .list('v1', 'Pod', ds.metadata.namespace)
      .filter((p) => isControlledBy(p, ds) && isPodActive(p));
    const ready = pods.filter(isPodReady).length;
    const status: Record<string, unknown> = {
      currentNumberScheduled: pods.length,
      desiredNumberScheduled: 1,
      numberMisscheduled: 0,
      numberReady: ready,
      numberAvailable: ready,
      updatedNumberScheduled: pods.filter((p) => p.metadata.labels?.[REVISION_LABEL] === hash).length,
      observedGeneration: ds.metadata.generation,
    };
    if (ready < 1) status.numberUnavailable = 1 - ready;
    if (ready === 0) delete status.numberAvailable;
    if (JSON.stringify(statusOf(ds)) !== JSON.stringify(status)) ctx.client.updateStatus({ ...ds, status });
  }
}
