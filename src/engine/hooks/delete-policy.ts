/**
 * HookDeletePolicy of a hook. Source: gitops-engine `pkg/sync/hook/delete_policy.go`; spec §5.2.
 * Policies from `argocd.argoproj.io/hook-delete-policy` (comma list) unioned with the Helm mapping of
 * `helm.sh/hook-delete-policy`; an empty union means `BeforeHookCreation`.
 */
import {
  Annotations,
  HOOK_DELETE_POLICIES,
  type HookDeletePolicy,
  isHookDeletePolicy,
  type KubeObject,
} from '../../domain/index.js';
import { didYouMean } from '../closest-names.js';
import { annotationCsvOf } from '../object-annotations.js';
import { ignoreWarnings, type Warn } from '../plan-warning.js';
import { helmDeletePoliciesOf } from './helm.js';

/** Effective delete policies of a hook, Argo's first, then Helm's; never empty. Warns about unknown values. */
export function deletePoliciesOf(obj: KubeObject, warn: Warn = ignoreWarnings): HookDeletePolicy[] {
  const policies: HookDeletePolicy[] = [];
  for (const value of annotationCsvOf(obj, Annotations.hookDeletePolicy)) {
    if (isHookDeletePolicy(value)) policies.push(value);
    else {
      const hint = didYouMean(value, HOOK_DELETE_POLICIES);
      warn(`${Annotations.hookDeletePolicy}: unknown policy "${value}"${hint}; Argo CD ignores it`);
    }
  }
  for (const policy of helmDeletePoliciesOf(obj, warn)) if (!policies.includes(policy)) policies.push(policy);
  return policies.length > 0 ? policies : ['BeforeHookCreation'];
}

/** True when the hook's effective policies include `policy`. */
export function hasDeletePolicy(obj: KubeObject, policy: HookDeletePolicy): boolean {
  return deletePoliciesOf(obj).includes(policy);
}
