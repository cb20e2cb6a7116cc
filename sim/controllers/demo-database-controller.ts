/**
 * The operator of the demo's own custom resource, `Database` (group `demo.wavesync.dev`, the CRD in
 * examples/manifests/orders/database-crd.yaml): as a real operator installed in the cluster, it acts only on
 * Databases the API server accepted, which is once their CRD is Established (crd-controller.ts). Each generation
 * it has not seen yet is provisioned: `status.observedGeneration` and condition Ready=False `Provisioning` at once,
 * then after DATABASE_PROVISION_SECONDS simulated seconds Ready=True `Available` with `status.endpoint`. A
 * generation changed meanwhile starts again; a deleted or pinned Database is left alone. wavesync's demo judges
 * it with a Lua health script (examples/wavesync.yaml), the way Argo CD judges custom resources.
 */
import type { KubeObject } from '../store/kube-object.js';
import {
  type Condition,
  type ControllerContext,
  onTypes,
  setCondition,
  statusOf,
} from './controller-context.js';

/** Store key (group/plural) of the demo's Database kind. */
const DATABASE_TYPE_KEY = 'demo.wavesync.dev/databases';

/** Simulated seconds a Database takes to provision (3 s of wall clock at the demo's ×20). */
export const DATABASE_PROVISION_SECONDS = 60;

interface DatabaseSpec {
  engine?: string;
  version?: string;
  storage?: string;
}

export function demoDatabaseController(ctx: ControllerContext): void {
  onTypes(ctx, [DATABASE_TYPE_KEY], (event) => {
    const db = event.object;
    if (event.type === 'DELETED' || db.metadata.deletionTimestamp || ctx.isPinned(db)) return;
    const generation = db.metadata.generation ?? 1;
    if (statusOf(db).observedGeneration === generation) return; // this generation is already being provisioned
    const spec = (db.spec ?? {}) as DatabaseSpec;
    const what = `${spec.engine ?? 'postgres'} ${spec.version ?? ''}`.replace(/ $/, '');
    write(ctx, db, generation, {
      type: 'Ready',
      status: 'False',
      reason: 'Provisioning',
      message: `Provisioning ${what}${spec.storage ? ` with ${spec.storage} of storage` : ''}`,
    });
    ctx.events.normal(db, 'Provisioning', `Provisioning ${what}`, 'database-controller');
    ctx.scheduler.after(DATABASE_PROVISION_SECONDS, () => {
      const live = ctx.client.get(db.apiVersion, db.kind, db.metadata.namespace, db.metadata.name ?? '');
      if (!live || live.metadata.deletionTimestamp || ctx.isPinned(live)) return;
      if ((live.metadata.generation ?? 1) !== generation) return; // a newer generation has its own timer
      const endpoint = `${live.metadata.name}.${live.metadata.namespace}.svc:5432`;
      write(ctx, live, generation, {
        type: 'Ready',
        status: 'True',
        reason: 'Available',
        message: `${what} is ready at ${endpoint}`,
      });
      ctx.events.normal(live, 'Available', `${what} is ready at ${endpoint}`, 'database-controller');
    });
  });
}

function write(ctx: ControllerContext, db: KubeObject, generation: number, ready: Condition): void {
  const status = statusOf(db);
  const conditions = setCondition((status.conditions ?? []) as Condition[], ready);
  const endpoint =
    ready.status === 'True' ? { endpoint: `${db.metadata.name}.${db.metadata.namespace}.svc:5432` } : {};
  ctx.client.updateStatus({ ...db, status: { observedGeneration: generation, conditions, ...endpoint } });
}
