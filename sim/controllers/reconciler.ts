/**
 * The common wiring of a workload controller: a work queue of `namespace/name` keys fed by events of the
 * controller's own kind and by events of the children it controls (found through their controller owner
 * reference).
 */
import type { ControllerContext } from './controller-context.js';
import { onTypes } from './controller-context.js';
import { controllerOf } from './owned-objects.js';
import { keyOf, WorkQueue } from './work-queue.js';

export interface ReconcilerSpec {
  /** Store key of the controller's kind, e.g. `apps/deployments`. */
  typeKey: string;
  /** The kind named in its children's controller owner references, e.g. `Deployment`. */
  kind: string;
  /** Store key of the children, e.g. `apps/replicasets`. */
  childTypeKey: string;
}

export function startReconciler(
  ctx: ControllerContext,
  spec: ReconcilerSpec,
  reconcile: (key: string) => void,
): WorkQueue {
  const queue = new WorkQueue(reconcile, (key, err) =>
    ctx.logger.warn({ key, kind: spec.kind, err }, 'reconcile failed'),
  );
  onTypes(ctx, [spec.typeKey], (e) => queue.add(keyOf(e.object.metadata.namespace, e.object.metadata.name)));
  onTypes(ctx, [spec.childTypeKey], (e) => {
    const owner = controllerOf(e.object);
    if (owner?.kind === spec.kind) queue.add(keyOf(e.object.metadata.namespace, owner.name));
  });
  return queue;
}
