/**
 * Minimal CustomResourceDefinitions for Argo CD's Application and AppProject (argoproj.io/v1alpha1), with
 * the names, short names and scope of the real ones and schemas that keep spec/status as they are
 * (x-kubernetes-preserve-unknown-fields). Install them with `sim.installCrds(ARGO_CD_CRDS)`.
 */
import type { KubeObject } from '../store/kube-object.js';

function crd(kind: string, plural: string, singular: string, shortNames: string[]): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${plural}.argoproj.io`,
      labels: { 'app.kubernetes.io/name': `${plural}.argoproj.io`, 'app.kubernetes.io/part-of': 'argocd' },
    },
    spec: {
      group: 'argoproj.io',
      scope: 'Namespaced',
      names: { kind, listKind: `${kind}List`, plural, singular, shortNames },
      versions: [
        {
          name: 'v1alpha1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              required: ['metadata', 'spec'],
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                operation: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              },
            },
          },
        },
      ],
    },
  };
}

export const ARGO_CD_CRDS: readonly KubeObject[] = [
  crd('Application', 'applications', 'application', ['app', 'apps']),
  crd('AppProject', 'appprojects', 'appproject', ['appproj', 'appprojs']),
];
