/**
 * Helm hook annotations mapped onto Argo CD's vocabulary.
 * Source: gitops-engine `pkg/sync/hook/helm/{type,hook,delete_policy}.go`; Argo CD docs user-guide/helm.
 *
 * `helm.sh/hook`: pre-install/pre-upgrade → PreSync, post-install/post-upgrade → PostSync; other Helm hooks
 * (test, pre-delete, pre-rollback, …) have no sync phase. `helm.sh/hook-delete-policy`: before-hook-creation,
 * hook-succeeded, hook-failed → BeforeHookCreation, HookSucceeded, HookFailed.
 */
import { Annotations, type HookDeletePolicy, type HookType, type KubeObject } from '../../domain/index.js';
import { didYouMean } from '../closest-names.js';
import { annotationCsvOf, annotationOf } from '../object-annotations.js';
import { ignoreWarnings, type Warn } from '../plan-warning.js';

const HELM_HOOK_TYPES: Readonly<Record<string, HookType | null>> = {
  'pre-install': 'PreSync',
  'pre-upgrade': 'PreSync',
  'post-install': 'PostSync',
  'post-upgrade': 'PostSync',
  // Known Helm hooks without a sync phase: the engine ignores objects carrying only these.
  'pre-delete': null,
  'post-delete': null,
  'pre-rollback': null,
  'post-rollback': null,
  test: null,
  'test-success': null,
  'test-failure': null,
  'crd-install': null,
};

const HELM_DELETE_POLICIES: Readonly<Record<string, HookDeletePolicy>> = {
  'before-hook-creation': 'BeforeHookCreation',
  'hook-succeeded': 'HookSucceeded',
  'hook-failed': 'HookFailed',
};

/** True when `helm.sh/hook` is present and its raw value is not exactly `crd-install` (Helm CRDs are resources). */
export function isHelmHook(obj: KubeObject): boolean {
  const value = annotationOf(obj, Annotations.helmHook);
  return value !== undefined && value !== 'crd-install';
}

/** Argo CD hook types mapped from `helm.sh/hook`, de-duplicated; warns about values Helm does not define. */
export function helmHookTypesOf(obj: KubeObject, warn: Warn = ignoreWarnings): HookType[] {
  const types: HookType[] = [];
  for (const value of annotationCsvOf(obj, Annotations.helmHook)) {
    const type = HELM_HOOK_TYPES[value];
    if (type === undefined) {
      const hint = didYouMean(value, Object.keys(HELM_HOOK_TYPES));
      warn(`${Annotations.helmHook}: unknown Helm hook "${value}"${hint}; Argo CD ignores it`);
    }
    if (type && !types.includes(type)) types.push(type);
  }
  return types;
}

/** Argo CD delete policies mapped from `helm.sh/hook-delete-policy`; warns about unknown values. */
export function helmDeletePoliciesOf(obj: KubeObject, warn: Warn = ignoreWarnings): HookDeletePolicy[] {
  const policies: HookDeletePolicy[] = [];
  for (const value of annotationCsvOf(obj, Annotations.helmHookDeletePolicy)) {
    const policy = HELM_DELETE_POLICIES[value];
    if (policy === undefined) {
      const hint = didYouMean(value, Object.keys(HELM_DELETE_POLICIES));
      warn(`${Annotations.helmHookDeletePolicy}: unknown policy "${value}"${hint}; Argo CD ignores it`);
    } else if (!policies.includes(policy)) policies.push(policy);
  }
  return policies;
}
