/**
 * Sync options (spec §7): app-level options come with the operation (`SyncOperation.syncOptions`), resource-level
 * ones from the `argocd.argoproj.io/sync-options` annotation (CSV, trimmed, exact `Key=value` match).
 */
import { Annotations, type KubeObject, type SyncOperation } from '../domain/index.js';
import { annotationCsvOf, hasAnnotationOption } from './object-annotations.js';

/** True when the object's sync-options annotation lists `option`. */
function objectHasOption(obj: KubeObject | undefined, option: string): boolean {
  return obj !== undefined && hasAnnotationOption(obj, Annotations.syncOptions, option);
}

/** The operation or any of the objects has `option`. */
export function hasSyncOption(
  operation: SyncOperation,
  option: string,
  ...objects: (KubeObject | undefined)[]
): boolean {
  return operation.syncOptions.includes(option) || objects.some((obj) => objectHasOption(obj, option));
}

/** Delete propagation from `PrunePropagationPolicy=` (default foreground), capitalised for the API. */
export function propagationPolicyOf(operation: SyncOperation): 'Foreground' | 'Background' | 'Orphan' {
  const option = operation.syncOptions.find((o) => o.startsWith('PrunePropagationPolicy='));
  const value = option?.slice('PrunePropagationPolicy='.length).toLowerCase();
  if (value === 'background') return 'Background';
  if (value === 'orphan') return 'Orphan';
  return 'Foreground';
}

/**
 * The value of a `Key=value` sync option for one object: its own sync-options annotation, else the
 * Application-level `options` (resource value wins, Argo CD v3.4+ for `Prune=`/`Delete=`); undefined when neither
 * sets it. E.g. `syncOptionValueOf(obj, 'Delete', app.syncPolicy.syncOptions)` → `'confirm'`.
 */
export function syncOptionValueOf(
  obj: KubeObject | undefined,
  key: string,
  options: readonly string[] | undefined,
): string | undefined {
  const prefix = `${key}=`;
  const own = obj
    ? annotationCsvOf(obj, Annotations.syncOptions).find((o) => o.startsWith(prefix))
    : undefined;
  return (own ?? options?.find((o) => o.startsWith(prefix)))?.slice(prefix.length);
}
