import { describe, expect, it } from 'vitest';
import { DELETE_POLICY, obj } from '../../../test/builders/manifest-builders.js';
import { deletePoliciesOf, hasDeletePolicy } from './delete-policy.js';

function job(annotations: Record<string, string>) {
  return obj('batch/v1', 'Job', 'j', { 'argocd.argoproj.io/hook': 'PreSync', ...annotations });
}

describe('src/engine/hooks/delete-policy', () => {
  it('defaults to BeforeHookCreation', () => {
    expect(deletePoliciesOf(job({}))).toEqual(['BeforeHookCreation']);
  });

  it('reads the argo list and unions it with the helm policies, without duplicates', () => {
    const o = job({
      [DELETE_POLICY]: 'HookSucceeded',
      'helm.sh/hook-delete-policy': 'hook-succeeded,before-hook-creation',
    });

    expect(deletePoliciesOf(o)).toEqual(['HookSucceeded', 'BeforeHookCreation']);
    expect(hasDeletePolicy(o, 'HookFailed')).toBe(false);
  });

  it('ignores unknown or miscased policies with a warning, then defaults', () => {
    const warnings: string[] = [];

    expect(deletePoliciesOf(job({ [DELETE_POLICY]: 'hooksucceeded' }), (m) => warnings.push(m))).toEqual([
      'BeforeHookCreation',
    ]);
    expect(warnings).toEqual([
      'argocd.argoproj.io/hook-delete-policy: unknown policy "hooksucceeded" (did you mean HookSucceeded?); Argo CD ignores it',
    ]);
  });
});
