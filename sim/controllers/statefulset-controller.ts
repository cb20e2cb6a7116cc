/**
 * apps/v1 StatefulSet controller: Pods `<name>-<ordinal>` created in order (OrderedReady: the next only once the
 * previous is Ready; Parallel: all at once), PVCs from volumeClaimTemplates (`<template>-<name>-<ordinal>`),
 * RollingUpdate from the highest ordinal down one Pod at a time, scale-down from the highest ordinal. Status:
 * observedGeneration, replicas, readyReplicas, currentReplicas, updatedReplicas, availableReplicas,
 * currentRevision, updateRevision (`<name>-<hash>`), collisionCount.
 */
import { clone, type JsonObject, type KubeObject } from '../store/kube-object.js';
import { type ControllerContext, statusOf } from './controller-context.js';
import {
  isControlledBy,
  isPodActive,
  isPodReady,
  podFromTemplate,
  templateHash,
  withoutZeros,
} from './owned-objects.js';
import { startReconciler } from './reconciler.js';
import { splitKey } from './work-queue.js';

const COMPONENT = 'statefulset-controller';
const REVISION_LABEL = 'controller-revision-hash';

interface StatefulSetSpec {
  replicas?: number;
  podManagementPolicy?: string;
  updateStrategy?: { type?: string };
  template: JsonObject;
  volumeClaimTemplates?: KubeObject[];
}

export function statefulSetController(ctx: ControllerContext): void {
  startReconciler(
    ctx,
    { typeKey: 'apps/statefulsets', kind: 'StatefulSet', childTypeKey: '/pods' },
    reconcile,
  );

  function reconcile(key: string): void {
    const { namespace, name } = splitKey(key);
    const sts = ctx.client.get('apps/v1', 'StatefulSet', namespace, name);
    if (!sts || sts.metadata.deletionTimestamp || ctx.isPinned(sts)) return;
    const spec = sts.spec as StatefulSetSpec;
    const desired = spec.replicas ?? 1;
    const revision = `${name}-${templateHash(spec.template)}`;
    const pods = new Map(
      ctx.client
        .list('v1', 'Pod', namespace)
        .filter((p) => isControlledBy(p, sts))
        .map((p) => [ordinalOf(p, name), p]),
    );
    const parallel = spec.podManagementPolicy === 'Parallel';
    for (let i = 0; i < desired; i += 1) {
      const pod = pods.get(i);
      if (pod && !isPodActive(pod) && !pod.metadata.deletionTimestamp) ctx.client.delete(podRef(pod));
      if (pod) {
        if (!parallel && !isPodReady(pod)) break;
        continue;
      }
      createPod(sts, spec, i, revision);
      if (!parallel) break;
    }
    for (const [ordinal, pod] of pods)
      if (ordinal >= desired && !pod.metadata.deletionTimestamp) ctx.client.delete(podRef(pod));
    rollOne(spec, pods, desired, revision);
    writeStatus(sts, revision);
  }

  function createPod(sts: KubeObject, spec: StatefulSetSpec, ordinal: number, revision: string): void {
    const name = `${sts.metadata.name}-${ordinal}`;
    const pod = podFromTemplate(sts, spec.template, name, {
      [REVISION_LABEL]: revision,
      'statefulset.kubernetes.io/pod-name': name,
      'apps.kubernetes.io/pod-index': String(ordinal),
    });
    const volumes = ((pod.spec as JsonObject).volumes ?? []) as JsonObject[];
    for (const template of spec.volumeClaimTemplates ?? []) {
      const claimName = `${template.metadata.name}-${name}`;
      if (!ctx.client.get('v1', 'PersistentVolumeClaim', sts.metadata.namespace, claimName)) {
        ctx.client.create({
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: { name: claimName, namespace: sts.metadata.namespace, labels: pod.metadata.labels },
          spec: clone(template.spec),
        });
      }
      volumes.push({ name: template.metadata.name, persistentVolumeClaim: { claimName } });
    }
    if (volumes.length > 0) (pod.spec as JsonObject).volumes = volumes;
    pod.spec = {
      ...(pod.spec as JsonObject),
      hostname: name,
      subdomain: (sts.spec as JsonObject).serviceName,
    };
    ctx.client.create(pod);
    ctx.events.normal(
      sts,
      'SuccessfulCreate',
      `create Pod ${name} in StatefulSet ${sts.metadata.name} successful`,
      COMPONENT,
    );
  }

  /** RollingUpdate: when every Pod is Ready, delete the highest-ordinal Pod still on an old revision. */
  function rollOne(
    spec: StatefulSetSpec,
    pods: Map<number, KubeObject>,
    desired: number,
    revision: string,
  ): void {
    if (spec.updateStrategy?.type === 'OnDelete') return;
    const current = [...pods.entries()].filter(([i]) => i < desired);
    if (current.length < desired || !current.every(([, p]) => isPodReady(p))) return;
    const stale = current
      .filter(([, p]) => p.metadata.labels?.[REVISION_LABEL] !== revision)
      .sort(([a], [b]) => b - a)[0];
    if (stale) ctx.client.delete(podRef(stale[1]));
  }

  function writeStatus(sts: KubeObject, revision: string): void {
    const pods = ctx.client
      .list('v1', 'Pod', sts.metadata.namespace)
      .filter((p) => isControlledBy(p, sts) && isPodActive(p));
    const updated = pods.filter((p) => p.metadata.labels?.[REVISION_LABEL] === revision).length;
    const ready = pods.filter(isPodReady).length;
    const desired = (sts.spec as StatefulSetSpec).replicas ?? 1;
    const previous = statusOf(sts);
    const done = updated === desired && pods.length === desired;
    const currentRevision = done || !previous.currentRevision ? revision : String(previous.currentRevision);
    const current = pods.filter((p) => p.metadata.labels?.[REVISION_LABEL] === currentRevision).length;
    const status = {
      ...withoutZeros(
        {
          observedGeneration: sts.metadata.generation,
          replicas: pods.length,
          readyReplicas: ready,
          currentReplicas: current,
          updatedReplicas: updated,
        },
        ['replicas'],
      ),
      availableReplicas: ready,
      currentRevision,
      updateRevision: revision,
      collisionCount: 0,
    };
    if (JSON.stringify(previous) !== JSON.stringify(status)) ctx.client.updateStatus({ ...sts, status });
  }
}

function ordinalOf(pod: KubeObject, name: string): number {
  return Number((pod.metadata.name ?? '').slice(name.length + 1));
}

function podRef(pod: KubeObject) {
  return { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', namespace: pod.metadata.namespace };
}
