/**
 * Typed builders for desired and live objects in planner and engine tests.
 * @example sourced(obj('batch/v1', 'Job', 'migrate', { 'argocd.argoproj.io/hook': 'PreSync' }))
 */
import type { KubeObject } from '../../src/domain/index.js';
import type { SourcedObject } from '../../src/engine/index.js';

/** An object with the given annotations; `namespace` only when given. */
export function obj(
  apiVersion: string,
  kind: string,
  name: string,
  annotations: Record<string, string> = {},
  extra: { namespace?: string; generateName?: string; spec?: unknown } = {},
): KubeObject {
  const metadata: KubeObject['metadata'] = { name, annotations };
  if (extra.namespace !== undefined) metadata.namespace = extra.namespace;
  if (extra.generateName !== undefined) {
    metadata.generateName = extra.generateName;
    delete metadata.name;
  }
  const result: KubeObject = { apiVersion, kind, metadata };
  if (extra.spec !== undefined) result.spec = extra.spec;
  return result;
}

/** A CRD for `group`/`kind`. */
export function crd(
  group: string,
  kind: string,
  plural: string,
  annotations: Record<string, string> = {},
): KubeObject {
  return obj('apiextensions.k8s.io/v1', 'CustomResourceDefinition', `${plural}.${group}`, annotations, {
    spec: { group, names: { kind, plural } },
  });
}

/**
 * A complete CRD an API server accepts: one served and stored version `v1`, namespaced, whose schema keeps any
 * field (`x-kubernetes-preserve-unknown-fields`). For syncs against the simulator.
 */
export function servedCrd(group: string, kind: string, plural: string): KubeObject {
  const singular = kind.toLowerCase();
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular, kind, listKind: `${kind}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  };
}

/** Wraps objects as loaded from `file`, one line per object. */
export function sourced(...objects: KubeObject[]): SourcedObject[] {
  return objects.map((object, i) => ({ object, source: { file: 'test.yaml', line: i + 1 } }));
}

export const HOOK = 'argocd.argoproj.io/hook';
export const WAVE = 'argocd.argoproj.io/sync-wave';
export const DELETE_POLICY = 'argocd.argoproj.io/hook-delete-policy';
export const SYNC_OPTIONS = 'argocd.argoproj.io/sync-options';
