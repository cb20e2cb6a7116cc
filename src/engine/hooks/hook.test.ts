import { describe, expect, it } from 'vitest';
import { HOOK, obj } from '../../../test/builders/manifest-builders.js';
import { hookTraitsOf, hookTypesOf, isHook, isIgnored, isSkip } from './hook.js';

const HELM_HOOK = 'helm.sh/hook';

function job(annotations: Record<string, string>) {
  return obj('batch/v1', 'Job', 'j', annotations);
}

function warningsOf(annotations: Record<string, string>): string[] {
  const warnings: string[] = [];
  hookTypesOf(job(annotations), (m) => warnings.push(m));
  return warnings;
}

describe('src/engine/hooks/hook', () => {
  it('splits, trims, de-duplicates and keeps first-seen order of argocd.argoproj.io/hook', () => {
    expect(hookTypesOf(job({ [HOOK]: ' PostSync , PreSync,,PostSync ' }))).toEqual(['PostSync', 'PreSync']);
  });

  it('matches hook types case-sensitively and warns about the unknown ones with the closest valid type', () => {
    expect(hookTypesOf(job({ [HOOK]: 'presync' }))).toEqual([]);
    expect(warningsOf({ [HOOK]: 'presync' })).toEqual([
      'argocd.argoproj.io/hook: unknown hook type "presync" (did you mean PreSync?); Argo CD ignores it, so this hook is neither applied nor pruned',
    ]);
    expect(warningsOf({ [HOOK]: 'PreSynk' })).toEqual([
      'argocd.argoproj.io/hook: unknown hook type "PreSynk" (did you mean PreSync?); Argo CD ignores it, so this hook is neither applied nor pruned',
    ]);
    expect(warningsOf({ [HOOK]: 'PostSynk,Sync' })).toEqual([
      'argocd.argoproj.io/hook: unknown hook type "PostSynk" (did you mean PostSync?); Argo CD ignores it',
    ]);
    expect(warningsOf({ [HOOK]: 'Whatever' })).toEqual([
      'argocd.argoproj.io/hook: unknown hook type "Whatever"; Argo CD ignores it, so this hook is neither applied nor pruned',
    ]);
  });

  it('drops PreDelete/PostDelete from sync hook types without a warning (they run on app deletion)', () => {
    expect(hookTypesOf(job({ [HOOK]: 'PostDelete' }))).toEqual([]);
    expect(warningsOf({ [HOOK]: 'PreDelete,PostDelete' })).toEqual([]);
  });

  it('treats an object whose only hook type is Skip as Skip, not as a hook', () => {
    const skip = job({ [HOOK]: 'Skip' });

    expect(isSkip(skip)).toBe(true);
    expect(isHook(skip)).toBe(false);
    expect(isIgnored(skip)).toBe(false);
  });

  it('treats Skip listed with another type as that hook, and warns', () => {
    const o = job({ [HOOK]: 'Skip,PreSync' });

    expect(isSkip(o)).toBe(false);
    expect(isHook(o)).toBe(true);
    expect(warningsOf({ [HOOK]: 'Skip,PreSync' })).toEqual([
      'argocd.argoproj.io/hook: Skip is ignored when listed with other hook types',
    ]);
  });

  it('ignores hooks without a recognised type (PostDelete, presync, helm test-success)', () => {
    expect(isIgnored(job({ [HOOK]: 'PostDelete' }))).toBe(true);
    expect(isIgnored(job({ [HOOK]: 'presync' }))).toBe(true);
    expect(isIgnored(job({ [HELM_HOOK]: 'test-success' }))).toBe(true);
    expect(isIgnored(job({ [HELM_HOOK]: 'pre-delete' }))).toBe(true);
  });

  it('uses the Helm mapping only when no Argo hook type is recognised', () => {
    expect(hookTypesOf(job({ [HOOK]: 'PostSync', [HELM_HOOK]: 'pre-install' }))).toEqual(['PostSync']);
    expect(hookTypesOf(job({ [HOOK]: 'presync', [HELM_HOOK]: 'pre-install' }))).toEqual(['PreSync']);
  });

  it('makes an object with an empty argocd hook annotation an ignored hook', () => {
    expect(hookTraitsOf(job({ [HOOK]: '' }))).toEqual({ types: [], skip: false, hook: true, ignored: true });
  });

  it('does not treat helm crd-install (the entire value) as a hook', () => {
    expect(isHook(job({ [HELM_HOOK]: 'crd-install' }))).toBe(false);
    expect(isHook(job({ [HELM_HOOK]: 'crd-install,pre-install' }))).toBe(true);
  });

  it('makes plain objects neither hooks, Skip nor ignored', () => {
    expect(hookTraitsOf(job({}))).toEqual({ types: [], skip: false, hook: false, ignored: false });
  });
});
