/**
 * Helpers shared by the workload controllers: controller owner references, finding the objects a controller
 * owns, building Pods from a template, pod readiness, and a stable template hash (pod-template-hash).
 */
import { createHash } from 'node:crypto';
import {
  clone,
  isJsonObject,
  type JsonObject,
  type KubeObject,
  type OwnerReference,
} from '../store/kube-object.js';
import type { Condition } from './controller-context.js';

const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export function controllerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

export function isControlledBy(obj: KubeObject, owner: KubeObject): boolean {
  return (obj.metadata.ownerReferences ?? []).some(
    (r) => r.controller === true && r.uid === owner.metadata.uid,
  );
}

/** The controller owner reference of an object, if any. */
export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true);
}

/** Stable 10-character hash of a pod template, in the alphabet Kubernetes uses for generated names. */
export function templateHash(template: unknown): string {
  const digest = createHash('sha256').update(JSON.stringify(template)).digest();
  return [...digest.subarray(0, 10)].map((b) => SAFE_ALPHABET[b % SAFE_ALPHABET.length]).join('');
}

export function podFromTemplate(
  owner: KubeObject,
  template: unknown,
  name: string,
  labels: Record<string, string> = {},
): KubeObject {
  const tpl = isJsonObject(template) ? clone(template) : {};
  const meta = isJsonObject(tpl.metadata) ? tpl.metadata : {};
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: owner.metadata.namespace,
      labels: { ...((meta.labels ?? {}) as Record<string, string>), ...labels },
      ...(meta.annotations ? { annotations: meta.annotations as Record<string, string> } : {}),
      ownerReferences: [controllerRef(owner)],
    },
    spec: isJsonObject(tpl.spec) ? tpl.spec : {},
  };
}

export function podPhaseOf(pod: KubeObject): string {
  return String((pod.status as JsonObject | undefined)?.phase ?? 'Pending');
}

export function isPodReady(pod: KubeObject): boolean {
  const conditions = ((pod.status as JsonObject | undefined)?.conditions ?? []) as Condition[];
  return !pod.metadata.deletionTimestamp && conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

export function isPodActive(pod: KubeObject): boolean {
  const phase = podPhaseOf(pod);
  return !pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed';
}

/** Drop zero counters, as the apps/batch status structs serialize them (`omitempty`). */
export function withoutZeros(status: Record<string, unknown>, keep: string[] = []): Record<string, unknown> {
  return Object.fromEntries(Object.entries(status).filter(([k, v]) => v !== 0 || keep.includes(k)));
}
