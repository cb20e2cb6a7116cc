/**
 * DELETE semantics: preconditions (uid/resourceVersion → 409), propagationPolicy (Orphan and Foreground add
 * the `orphan`/`foregroundDeletion` finalizers; Background leaves dependents to the garbage collector),
 * finalizers (an object with finalizers is only marked with deletionTimestamp), Namespaces always go through
 * Terminating, and dry-run.
 */

import { isJsonObject, type KubeObject, timestamp } from '../store/kube-object.js';
import type { ObjectStore } from '../store/object-store.js';
import { typeKey } from './resource-type.js';
import { badRequest, conflict, notFound } from './status-error.js';
import type { CustomResourceType } from './type-registry.js';

export interface DeleteOptions {
  dryRun: boolean;
  propagationPolicy?: string;
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface DeleteResult {
  object: KubeObject;
  /** true when the object is gone, false when it was only marked (finalizers pending) → HTTP 202. */
  removed: boolean;
}

const POLICY_FINALIZER: Record<string, string> = { Orphan: 'orphan', Foreground: 'foregroundDeletion' };

/** Merge query-string and body (DeleteOptions) parameters; body wins as in the apiserver. */
export function parseDeleteOptions(query: URLSearchParams, body: unknown): DeleteOptions {
  const fromBody = isJsonObject(body) ? body : {};
  const dryRun =
    (Array.isArray(fromBody.dryRun) && fromBody.dryRun.length > 0) || query.getAll('dryRun').length > 0;
  const options: DeleteOptions = { dryRun };
  const policy =
    (fromBody.propagationPolicy as string | undefined) ?? query.get('propagationPolicy') ?? undefined;
  const orphan =
    (fromBody.orphanDependents as boolean | undefined) ??
    (query.get('orphanDependents') === 'true' ? true : undefined);
  if (policy !== undefined && !['Orphan', 'Background', 'Foreground'].includes(policy)) {
    throw badRequest(
      `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan", "nil"`,
    );
  }
  if (policy) options.propagationPolicy = policy;
  else if (orphan === true) options.propagationPolicy = 'Orphan';
  if (isJsonObject(fromBody.preconditions))
    options.preconditions = fromBody.preconditions as DeleteOptions['preconditions'] & object;
  return options;
}

export function deleteObject(
  store: ObjectStore,
  type: CustomResourceType,
  namespace: string | undefined,
  name: string,
  options: DeleteOptions,
): DeleteResult {
  const live = store.get(typeKey(type), namespace, name);
  if (!live) throw notFound(type, name);
  const pre = options.preconditions;
  if (pre?.uid && pre.uid !== live.metadata.uid) throw conflict(type, name);
  if (pre?.resourceVersion && pre.resourceVersion !== live.metadata.resourceVersion)
    throw conflict(type, name);
  const finalizers = [...(live.metadata.finalizers ?? [])];
  const extra = POLICY_FINALIZER[options.propagationPolicy ?? ''];
  if (extra && !finalizers.includes(extra) && !live.metadata.deletionTimestamp) finalizers.push(extra);
  const mustWait = finalizers.length > 0 || type.kind === 'Namespace';
  if (!mustWait) {
    if (options.dryRun) return { object: live, removed: true };
    return { object: store.remove(typeKey(type), namespace, name) ?? live, removed: true };
  }
  if (live.metadata.deletionTimestamp) return { object: live, removed: false };
  live.metadata.deletionTimestamp = timestamp();
  live.metadata.deletionGracePeriodSeconds = 0;
  live.metadata.finalizers = finalizers;
  if (finalizers.length === 0) delete live.metadata.finalizers;
  if (type.kind === 'Namespace')
    live.status = { ...(isJsonObject(live.status) ? live.status : {}), phase: 'Terminating' };
  if (options.dryRun) return { object: live, removed: false };
  return { object: store.put(typeKey(type), live), removed: false };
}
