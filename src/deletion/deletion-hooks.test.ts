import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../domain/index.js';
import { deletionHooksOf, deletionHookTypesOf } from './deletion-hooks.js';

const obj = (name: string, annotations: Record<string, string>, namespace?: string): KubeObject => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name, annotations, ...(namespace ? { namespace } : {}) },
});

describe('deletion hooks (Argo CD controller/hook.go)', () => {
  it('recognises argocd.argoproj.io/hook PreDelete/PostDelete and helm.sh/hook pre-delete/post-delete', () => {
    expect(deletionHookTypesOf(obj('a', { 'argocd.argoproj.io/hook': 'PreDelete' }))).toEqual(['PreDelete']);
    expect(deletionHookTypesOf(obj('b', { 'argocd.argoproj.io/hook': 'PostDelete,PreDelete' }))).toEqual([
      'PreDelete',
      'PostDelete',
    ]);
    expect(deletionHookTypesOf(obj('c', { 'helm.sh/hook': 'post-delete' }))).toEqual(['PostDelete']);
    expect(deletionHookTypesOf(obj('d', { 'argocd.argoproj.io/hook': 'PreSync' }))).toEqual([]);
    expect(deletionHookTypesOf(obj('e', { 'helm.sh/hook': 'pre-install' }))).toEqual([]);
  });

  it('picks them out of the manifests, placing namespaceless ones in the destination namespace', () => {
    const hooks = deletionHooksOf(
      [
        obj('pre', { 'argocd.argoproj.io/hook': 'PreDelete' }),
        obj('post', { 'helm.sh/hook': 'post-delete' }, 'ops'),
        obj('plain', {}),
      ],
      'shop',
    );

    expect(hooks.preDelete.map((h) => `${h.metadata.namespace}/${h.metadata.name}`)).toEqual(['shop/pre']);
    expect(hooks.postDelete.map((h) => `${h.metadata.namespace}/${h.metadata.name}`)).toEqual(['ops/post']);
  });
});
