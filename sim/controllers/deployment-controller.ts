/**
 * apps/v1 Deployment controller (simplified rollout): the ReplicaSet for the current template
 * (`<deployment>-<pod-template-hash>`) is scaled to spec.replicas at once; older ReplicaSets are scaled to 0 once
 * the new one is fully available (Recreate: first). Status as the real controller writes it: observedGeneration,
 * replicas, updatedReplicas, readyReplicas, availableReplicas, unavailableReplicas, and the conditions
 * Available (MinimumReplicasAvailable / MinimumReplicasUnavailable) and Progressing (NewReplicaSetCreated,
 * ReplicaSetUpdated, NewReplicaSetAvailable, or False ProgressDeadlineExceeded after progressDeadlineSeconds).
 */
import { clone, type JsonObject, type KubeObject } from '../store/kube-object.js';
import { type Condition, type ControllerContext, setCondition, statusOf } from './controller-context.js';
import { controllerRef, isControlledBy, templateHash, withoutZeros } from './owned-objects.js';
import { startReconciler } from './reconciler.js';
import { keyOf, splitKey } from './work-queue.js';

const COMPONENT = 'deployment-controller';
const REVISION = 'deployment.kubernetes.io/revision';

interface DeploymentSpec {
  replicas?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
  /** A Pod counts as available once Ready this long (copied to the ReplicaSets it creates). */
  minReadySeconds?: number;
  strategy?: { type?: string; rollingUpdate?: { maxUnavailable?: number | string } };
  selector: { matchLabels?: Record<string, string> };
  template: { metadata?: { labels?: Record<string, string> } } & JsonObject;
}

interface RsStatus {
  replicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
}

export function deploymentController(ctx: ControllerContext): void {
  /** Simulated second of the last progress per Deployment uid, and the pending deadline timer. */
  const progressAt = new Map<string, number>();
  const deadlines = new Map<string, () => void>();
  const queue = startReconciler(
    ctx,
    { typeKey: 'apps/deployments', kind: 'Deployment', childTypeKey: 'apps/replicasets' },
    reconcile,
  );

  function reconcile(key: string): void {
    const { namespace, name } = splitKey(key);
    const deployment = ctx.client.get('apps/v1', 'Deployment', namespace, name);
    if (!deployment || deployment.metadata.deletionTimestamp || ctx.isPinned(deployment)) return;
    const spec = deployment.spec as DeploymentSpec;
    const desired = spec.replicas ?? 1;
    const hash = templateHash(spec.template);
    const owned = ctx.client
      .list('apps/v1', 'ReplicaSet', namespace)
      .filter((rs) => isControlledBy(rs, deployment));
    let current = owned.find((rs) => rs.metadata.labels?.['pod-template-hash'] === hash);
    const old = owned.filter((rs) => rs !== current);
    let created = false;
    if (!spec.paused) {
      if (!current) {
        current = createReplicaSet(deployment, spec, hash, owned, desired, old);
        created = true;
      } else scale(deployment, current, desired);
      const currentStatus = (current.status ?? {}) as RsStatus;
      const newAvailable = (currentStatus.availableReplicas ?? 0) >= desired;
      if (spec.strategy?.type === 'Recreate' || newAvailable) for (const rs of old) scale(deployment, rs, 0);
    }
    writeStatus(deployment, spec, current, [...old, ...(current ? [current] : [])], created);
  }

  function createReplicaSet(
    deployment: KubeObject,
    spec: DeploymentSpec,
    hash: string,
    owned: KubeObject[],
    desired: number,
    old: KubeObject[],
  ): KubeObject {
    const revision = Math.max(0, ...owned.map((rs) => Number(rs.metadata.annotations?.[REVISION] ?? 0))) + 1;
    const template = clone(spec.template);
    template.metadata = {
      ...template.metadata,
      labels: { ...template.metadata?.labels, 'pod-template-hash': hash },
    };
    const recreate =
      spec.strategy?.type === 'Recreate' && old.some((rs) => ((rs.status ?? {}) as RsStatus).replicas);
    const rs = ctx.client.create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${deployment.metadata.name}-${hash}`,
        namespace: deployment.metadata.namespace,
        labels: { ...template.metadata.labels },
        annotations: {
          [REVISION]: String(revision),
          'deployment.kubernetes.io/desired-replicas': String(desired),
          'deployment.kubernetes.io/max-replicas': String(desired),
        },
        ownerReferences: [controllerRef(deployment)],
      },
      spec: {
        replicas: recreate ? 0 : desired,
        selector: { matchLabels: { ...spec.selector.matchLabels, 'pod-template-hash': hash } },
        template,
        ...(spec.minReadySeconds ? { minReadySeconds: spec.minReadySeconds } : {}),
      },
    });
    ctx.events.normal(
      deployment,
      'ScalingReplicaSet',
      `Scaled up replica set ${rs.metadata.name} from 0 to ${desired}`,
      COMPONENT,
    );
    const annotated = ctx.client.get(
      'apps/v1',
      'Deployment',
      deployment.metadata.namespace,
      deployment.metadata.name ?? '',
    );
    if (annotated)
      ctx.client.update({
        ...annotated,
        metadata: {
          ...annotated.metadata,
          annotations: { ...annotated.metadata.annotations, [REVISION]: String(revision) },
        },
      });
    return rs;
  }

  function scale(deployment: KubeObject, rs: KubeObject, replicas: number): void {
    const spec = rs.spec as { replicas?: number };
    if (spec.replicas === replicas) return;
    const verb = (spec.replicas ?? 0) < replicas ? 'up' : 'down';
    ctx.client.update({ ...rs, spec: { ...(rs.spec as JsonObject), replicas } });
    ctx.events.normal(
      deployment,
      'ScalingReplicaSet',
      `Scaled ${verb} replica set ${rs.metadata.name} from ${spec.replicas ?? 0} to ${replicas}`,
      COMPONENT,
    );
  }

  function writeStatus(
    deployment: KubeObject,
    spec: DeploymentSpec,
    current: KubeObject | undefined,
    all: KubeObject[],
    created: boolean,
  ): void {
    const desired = spec.replicas ?? 1;
    const sum = (field: keyof RsStatus) =>
      all.reduce((n, rs) => n + (((rs.status ?? {}) as RsStatus)[field] ?? 0), 0);
    const updated = ((current?.status ?? {}) as RsStatus).replicas ?? 0;
    const available = sum('availableReplicas');
    const total = sum('replicas');
    const maxUnavailable = resolveMaxUnavailable(spec, desired);
    const previous = statusOf(deployment);
    let conditions = (previous.conditions ?? []) as Condition[];
    conditions = setCondition(
      conditions,
      available >= desired - maxUnavailable
        ? {
            type: 'Available',
            status: 'True',
            reason: 'MinimumReplicasAvailable',
            message: 'Deployment has minimum availability.',
          }
        : {
            type: 'Available',
            status: 'False',
            reason: 'MinimumReplicasUnavailable',
            message: 'Deployment does not have minimum availability.',
          },
      true,
    );
    conditions = setCondition(
      conditions,
      progressing(deployment, spec, current, { updated, available, total, desired, created }, conditions),
      true,
    );
    const status = withoutZeros({
      observedGeneration: deployment.metadata.generation,
      replicas: total,
      updatedReplicas: updated,
      readyReplicas: sum('readyReplicas'),
      availableReplicas: available,
      unavailableReplicas: Math.max(desired - available, 0),
      conditions,
    });
    if (JSON.stringify(stripTimes(previous)) === JSON.stringify(stripTimes(status))) return;
    ctx.client.updateStatus({ ...deployment, status });
  }

  function progressing(
    deployment: KubeObject,
    spec: DeploymentSpec,
    current: KubeObject | undefined,
    n: { updated: number; available: number; total: number; desired: number; created: boolean },
    conditions: Condition[],
  ): Condition {
    const rsName = current?.metadata.name ?? '';
    const uid = deployment.metadata.uid ?? '';
    const before = conditions.find((c) => c.type === 'Progressing');
    const complete = n.updated === n.desired && n.available === n.desired && n.total === n.desired;
    if (complete)
      return {
        type: 'Progressing',
        status: 'True',
        reason: 'NewReplicaSetAvailable',
        message: `ReplicaSet "${rsName}" has successfully progressed.`,
      };
    if (before?.reason === 'ProgressDeadlineExceeded' && !n.created) return before;
    const signature = `${rsName}/${n.updated}/${n.available}/${n.total}`;
    if (n.created || !progressAt.has(`${uid}/${signature}`)) {
      for (const k of [...progressAt.keys()]) if (k.startsWith(`${uid}/`)) progressAt.delete(k);
      progressAt.set(`${uid}/${signature}`, ctx.scheduler.now());
      deadlines.get(uid)?.();
      const deadline = spec.progressDeadlineSeconds ?? 600;
      deadlines.set(
        uid,
        ctx.scheduler.after(deadline + 0.1, () =>
          queue.add(keyOf(deployment.metadata.namespace, deployment.metadata.name)),
        ),
      );
    }
    const since = ctx.scheduler.now() - (progressAt.get(`${uid}/${signature}`) ?? 0);
    if (since >= (spec.progressDeadlineSeconds ?? 600) - 1e-6) {
      return {
        type: 'Progressing',
        status: 'False',
        reason: 'ProgressDeadlineExceeded',
        message: `ReplicaSet "${rsName}" has timed out progressing.`,
      };
    }
    if (n.created)
      return {
        type: 'Progressing',
        status: 'True',
        reason: 'NewReplicaSetCreated',
        message: `Created new replica set "${rsName}"`,
      };
    return {
      type: 'Progressing',
      status: 'True',
      reason: 'ReplicaSetUpdated',
      message: `ReplicaSet "${rsName}" is progressing.`,
    };
  }
}

function resolveMaxUnavailable(spec: DeploymentSpec, desired: number): number {
  if (spec.strategy?.type === 'Recreate') return 0;
  const value = spec.strategy?.rollingUpdate?.maxUnavailable ?? '25%';
  return typeof value === 'number' ? value : Math.floor((desired * Number.parseInt(value, 10)) / 100);
}

function stripTimes(status: Record<string, unknown>): unknown {
  const conditions = ((status.conditions ?? []) as Condition[]).map(
    ({ lastUpdateTime: _u, lastTransitionTime: _t, ...rest }) => rest,
  );
  return { ...status, conditions };
}
