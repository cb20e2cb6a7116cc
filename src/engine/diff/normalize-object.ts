/**
 * What a diff compares: an object without the fields the API server owns, as Argo CD's diff normalises them
 * (gitops-engine `pkg/diff` `normalize`/`removeNamespaceAnnotation`, and Argo CD's `argocd app diff`):
 * `metadata.managedFields`, `resourceVersion`, `generation`, `uid`, `creationTimestamp`, `selfLink`,
 * `deletionTimestamp`, the `kubectl.kubernetes.io/last-applied-configuration` annotation, and `status`; empty
 * `labels`/`annotations` maps are dropped so "absent" equals "empty".
 */
import type { KubeObject } from '../../domain/index.js';

const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

const SERVER_METADATA = [
  'managedFields',
  'resourceVersion',
  'generation',
  'uid',
  'creationTimestamp',
  'selfLink',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
] as const;

/** A copy of `obj` normalised for comparison (never mutates the input). */
export function normalizeForDiff(obj: KubeObject): KubeObject {
  const { status: _status, metadata, ...rest } = obj;
  const meta: Record<string, unknown> = { ...metadata };
  for (const field of SERVER_METADATA) delete meta[field];
  const annotations = { ...(metadata.annotations ?? {}) };
  delete annotations[LAST_APPLIED_ANNOTATION];
  if (Object.keys(annotations).length > 0) meta.annotations = annotations;
  else delete meta.annotations;
  if (metadata.labels !== undefined && Object.keys(metadata.labels).length === 0) delete meta.labels;
  return structuredClone({ ...rest, metadata: meta }) as KubeObject;
}
