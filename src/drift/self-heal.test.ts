import { describe, expect, it } from 'vitest';
import type { Application } from '../domain/application.js';
import type { ResourceDifference } from './compare-application.js';
import { selfHealAllowed, selfHealOperation, selfHealReason } from './self-heal.js';

function app(automated?: { selfHeal?: boolean; prune?: boolean }): Application {
  return {
    name: 'guestbook',
    namespace: 'argocd',
    project: 'default',
    source: { repoURL: 'https://example.com/repo.git', path: 'guestbook', targetRevision: 'main' },
    destination: { server: 'https://kubernetes.default.svc', namespace: 'guestbook' },
    finalizers: [],
    labels: {},
    annotations: {},
    manifest: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'guestbook' } },
    origin: 'guestbook.yaml:1',
    ...(automated ? { syncPolicy: { automated } } : {}),
  } as Application;
}

const drift = (name: string, reason: ResourceDifference['reason']): ResourceDifference =>
  ({
    key: { group: 'apps', kind: 'Deployment', namespace: 'guestbook', name },
    reason,
  }) as ResourceDifference;

describe('src/drift/self-heal', () => {
  it('self-heals only with selfHeal set and the environment allowing it, and asks the environment only then', () => {
    let asked = 0;
    const allowed = (answer: boolean) => () => {
      asked += 1;
      return answer;
    };

    expect(selfHealAllowed(app({ selfHeal: true }), allowed(true))).toBe(true);
    expect(selfHealAllowed(app({ selfHeal: true }), allowed(false))).toBe(false);
    expect(asked).toBe(2);
    expect(selfHealAllowed(app({ prune: true }), allowed(true))).toBe(false);
    expect(selfHealAllowed(app(), allowed(true))).toBe(false);
    expect(asked).toBe(2);
  });

  it('prunes only with syncPolicy.automated.prune (Argo CD), never as a dry run', () => {
    expect(selfHealOperation(app({ selfHeal: true, prune: true }))).toEqual({
      prune: true,
      dryRun: false,
      syncOptions: [],
    });
    expect(selfHealOperation(app({ selfHeal: true }))).toEqual({
      prune: false,
      dryRun: false,
      syncOptions: [],
    });
  });

  it('names what drifted in the audit reason, at most ten', () => {
    expect(selfHealReason([drift('web', 'changed'), drift('api', 'missing')], true)).toBe(
      'selfHeal (syncPolicy.automated, prune): drift in 2 resource(s): Deployment/web (changed), Deployment/api (missing)',
    );
    const many = Array.from({ length: 12 }, (_, i) => drift(`d${i}`, 'changed'));
    const reason = selfHealReason(many, false);
    expect(reason).toMatch(
      /^selfHeal \(syncPolicy\.automated\): drift in 12 resource\(s\): Deployment\/d0 \(changed\)/,
    );
    expect(reason).toContain('Deployment/d9 (changed), …');
    expect(reason).not.toContain('d10');
  });
});
