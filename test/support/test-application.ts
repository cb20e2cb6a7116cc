/**
 * A minimal parsed Application for unit tests: name `shop` in namespace `argocd`, project `default`, destination
 * namespace the name, no finalizers, labels or annotations; `overrides` replace fields whole.
 */
import type { Application } from '../../src/domain/application.js';

export function testApplication(overrides: Partial<Application> = {}): Application {
  const name = overrides.name ?? 'shop';
  return {
    name,
    namespace: 'argocd',
    project: 'default',
    source: { repoURL: '' },
    destination: { namespace: name },
    finalizers: [],
    labels: {},
    annotations: {},
    manifest: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name } },
    origin: 'test',
    ...overrides,
  };
}
