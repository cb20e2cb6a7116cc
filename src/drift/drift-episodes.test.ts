import { describe, expect, it } from 'vitest';
import type { ResourceDifference } from './compare-application.js';
import { type DriftState, driftMessage, observeDrift } from './drift-episodes.js';

const diff: ResourceDifference[] = [
  {
    key: { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' },
    reason: 'changed',
    path: 'spec.replicas',
  },
  { key: { group: '', kind: 'Service', namespace: 'shop', name: 'web' }, reason: 'missing' },
];
const at = (seconds: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, seconds));

describe('observeDrift', () => {
  it('notifies once per episode and reports when it is resolved', () => {
    const first = observeDrift(undefined, diff, { selfHeal: false }, at(0));
    const second = observeDrift(first.state, diff, { selfHeal: false }, at(30));
    const resolved = observeDrift(second.state, [], { selfHeal: false }, at(60));
    const quiet = observeDrift(resolved.state, [], { selfHeal: false }, at(90));
    const again = observeDrift(quiet.state, diff.slice(1), { selfHeal: false }, at(120));

    expect(first.action).toEqual({
      action: 'notify',
      message: 'OutOfSync: 2 resources differ (Deployment/web: spec.replicas changed, Service/web: missing)',
      differences: diff,
    });
    expect(second.action).toEqual({ action: 'none' });
    expect(resolved.action).toEqual({ action: 'resolved', message: 'Synced again' });
    expect(quiet.action).toEqual({ action: 'none' });
    expect(again.action).toMatchObject({
      action: 'notify',
      message: 'OutOfSync: 1 resource differs (Service/web: missing)',
    });
  });

  it('self-heals at the start of an episode and retries with exponential backoff while drift remains', () => {
    const policy = { selfHeal: true, retryBaseMs: 10_000, retryMaxMs: 40_000 };
    let state: DriftState | undefined;
    const actions: string[] = [];
    for (const second of [0, 5, 10, 15, 30, 49, 50, 89, 90, 129, 130]) {
      const step = observeDrift(state, diff, policy, at(second));
      state = step.state;
      if (step.action.action === 'sync') actions.push(`sync@${second}`);
    }

    expect(actions).toEqual(['sync@0', 'sync@10', 'sync@30', 'sync@89', 'sync@129']);
    expect(state?.selfHealAttempts).toBe(5);
  });

  it('summarises long lists', () => {
    const many = Array.from({ length: 7 }, (_, i) => ({
      ...diff[1]!,
      key: { ...diff[1]!.key, name: `s${i}` },
    }));

    expect(driftMessage(many)).toBe(
      'OutOfSync: 7 resources differ (Service/s0: missing, Service/s1: missing, Service/s2: missing, Service/s3: missing, Service/s4: missing, and 2 more)',
    );
  });
});
