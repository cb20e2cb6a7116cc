/**
 * Selective sync: a SyncOperation naming `resources` syncs only those (and runs no hooks). Source: Argo CD
 * `controller/sync.go` and `SyncOperationResource.HasIdentity`: group, kind and name must match; the namespace
 * only when the request names one.
 */
import { type KubeObject, resourceKeyOf, type SyncOperation } from '../../domain/index.js';

/** True when `operation` is not selective, or names `obj`. */
export function isSelected(operation: SyncOperation, obj: KubeObject): boolean {
  if (operation.resources === undefined) return true;
  const key = resourceKeyOf(obj);
  return operation.resources.some(
    (r) =>
      r.group === key.group &&
      r.kind === key.kind &&
      r.name === key.name &&
      (!r.namespace || r.namespace === key.namespace),
  );
}
