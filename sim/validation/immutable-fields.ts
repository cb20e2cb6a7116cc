/**
 * Fields the API refuses to change on update (422 Invalid, "field is immutable"): Job spec.selector and
 * spec.template, workload spec.selector, StatefulSet volumeClaimTemplates/serviceName, ConfigMap and Secret
 * data once `immutable: true`, Service clusterIP, PVC spec (except resources), CRD names/scope.
 */
import type { StatusCause } from '../api/status-error.js';
import { isJsonObject, type JsonObject, jsonEqual, type KubeObject } from '../store/kube-object.js';

const IMMUTABLE_SPEC_FIELDS: Record<string, string[]> = {
  Job: ['selector', 'template', 'completionMode'],
  Deployment: ['selector'],
  ReplicaSet: ['selector'],
  DaemonSet: ['selector'],
  StatefulSet: ['selector', 'serviceName', 'volumeClaimTemplates', 'podManagementPolicy'],
  PersistentVolumeClaim: ['accessModes', 'storageClassName', 'volumeName', 'selector'],
  CustomResourceDefinition: ['scope'],
};

export function validateImmutable(before: KubeObject, after: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const oldSpec = isJsonObject(before.spec) ? before.spec : {};
  const newSpec = isJsonObject(after.spec) ? after.spec : {};
  for (const field of IMMUTABLE_SPEC_FIELDS[after.kind] ?? []) {
    const binding =
      after.kind === 'PersistentVolumeClaim' && field === 'volumeName' && oldSpec[field] === undefined;
    if (!binding && !jsonEqual(oldSpec[field], newSpec[field]))
      causes.push(immutable(`spec.${field}`, newSpec[field]));
  }
  if (
    after.kind === 'Service' &&
    oldSpec.clusterIP &&
    newSpec.clusterIP &&
    oldSpec.clusterIP !== newSpec.clusterIP
  ) {
    causes.push({
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${JSON.stringify(newSpec.clusterIP)}: field is immutable`,
      field: 'spec.clusterIP',
    });
  }
  if ((after.kind === 'ConfigMap' || after.kind === 'Secret') && before.immutable === true)
    causes.push(...lockedData(before, after));
  return causes;
}

function immutable(field: string, value: unknown): StatusCause {
  return {
    reason: 'FieldValueInvalid',
    message: `Invalid value: ${JSON.stringify(value ?? null)}: field is immutable`,
    field,
  };
}

function lockedData(before: KubeObject, after: KubeObject): StatusCause[] {
  const forbidden = (field: string): StatusCause => ({
    reason: 'FieldValueForbidden',
    message: 'Forbidden: field is immutable when `immutable` is set',
    field,
  });
  const causes: StatusCause[] = [];
  if (after.immutable !== true) causes.push(forbidden('immutable'));
  for (const field of ['data', 'binaryData']) {
    if (!jsonEqual((before as JsonObject)[field] ?? {}, (after as JsonObject)[field] ?? {}))
      causes.push(forbidden(field));
  }
  return causes;
}
