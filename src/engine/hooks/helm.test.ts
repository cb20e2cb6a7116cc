import { describe, expect, it } from 'vitest';
import { obj } from '../../../test/builders/manifest-builders.js';
import { helmDeletePoliciesOf, helmHookTypesOf, isHelmHook } from './helm.js';

function job(annotations: Record<string, string>) {
  return obj('batch/v1', 'Job', 'j', annotations);
}

describe('src/engine/hooks/helm', () => {
  it.each([
    ['pre-install', ['PreSync']],
    ['pre-upgrade', ['PreSync']],
    ['pre-install,pre-upgrade', ['PreSync']],
    ['post-install', ['PostSync']],
    ['post-upgrade', ['PostSync']],
    ['pre-install,post-install', ['PreSync', 'PostSync']],
    ['test-success', []],
    ['pre-delete', []],
    ['post-rollback', []],
  ])('maps helm.sh/hook %j to %j', (value, types) => {
    expect(helmHookTypesOf(job({ 'helm.sh/hook': value }))).toEqual(types);
  });

  it('warns about values Helm does not define', () => {
    const warnings: string[] = [];

    helmHookTypesOf(job({ 'helm.sh/hook': 'preinstall' }), (m) => warnings.push(m));

    expect(warnings).toEqual([
      'helm.sh/hook: unknown Helm hook "preinstall" (did you mean pre-install?); Argo CD ignores it',
    ]);
  });

  it('maps helm delete policies and warns about unknown ones', () => {
    const warnings: string[] = [];
    const o = job({ 'helm.sh/hook-delete-policy': 'before-hook-creation, hook-succeeded,hook-failed,never' });

    expect(helmDeletePoliciesOf(o, (m) => warnings.push(m))).toEqual([
      'BeforeHookCreation',
      'HookSucceeded',
      'HookFailed',
    ]);
    expect(warnings).toEqual(['helm.sh/hook-delete-policy: unknown policy "never"; Argo CD ignores it']);
  });

  it('is a helm hook unless the value is exactly crd-install', () => {
    expect(isHelmHook(job({ 'helm.sh/hook': 'crd-install' }))).toBe(false);
    expect(isHelmHook(job({ 'helm.sh/hook': 'test' }))).toBe(true);
    expect(isHelmHook(job({}))).toBe(false);
  });
});
