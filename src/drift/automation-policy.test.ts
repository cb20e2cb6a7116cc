import { describe, expect, it } from 'vitest';
import { testApplication } from '../../test/support/test-application.js';
import type { Application } from '../domain/index.js';
import { parseSettings } from '../settings/index.js';
import { createDriftAutomationPolicy } from './automation-policy.js';

const settings = parseSettings(
  [
    'environments:',
    '  production: { requireApproval: true, approvers: { users: [U0SAM] } }',
    '  staging: {}',
    '  frozen: { freezeWindows: [{ name: always, cron: "0 0 * * *", durationMinutes: 1440 }] }',
    '  manual: { autoSync: false }',
  ].join('\n'),
  '/tmp/wavesync.yaml',
);

function app(
  automated: { selfHeal?: boolean; prune?: boolean; allowEmpty?: boolean },
  environment = 'staging',
): Application {
  return testApplication({ syncPolicy: { automated }, labels: { 'wavesync.io/environment': environment } });
}

describe('createDriftAutomationPolicy', () => {
  const now = () => new Date('2026-11-25T10:00:00Z');

  it('self-heals only with selfHeal on in an environment that allows automatic syncs now, and says why not', () => {
    const policy = createDriftAutomationPolicy(settings, now);
    expect(policy.whyNotAutomatic(app({ selfHeal: true }))).toBeUndefined();
    expect(policy.allowed(app({ selfHeal: true }))).toBe(true);
    expect(policy.whyNotAutomatic(app({}))).toBe('selfHeal is off');
    expect(policy.allowed(app({ selfHeal: true }, 'production'))).toBe(false);
    expect(policy.whyNotAutomatic(app({ selfHeal: true }, 'production'))).toBe(
      'selfHeal not allowed: production requires approval',
    );
    expect(policy.whyNotAutomatic(app({ selfHeal: true }, 'manual'))).toBe(
      'selfHeal not allowed: manual has autoSync: false',
    );
    expect(policy.whyNotAutomatic(app({ selfHeal: true }, 'frozen'))).toBe(
      'selfHeal paused: frozen is in a freeze window',
    );
  });

  it('refuses to prune everything: an empty render with live objects left stops selfHeal until a render is not empty', () => {
    const policy = createDriftAutomationPolicy(settings, now);
    const pruning = app({ selfHeal: true, prune: true });
    policy.observe(pruning, { rendered: 0, live: 3 });
    expect(policy.allowed(pruning)).toBe(false);
    expect(policy.whyNotAutomatic(pruning)).toBe(
      'selfHeal refused: the manifests are empty and prune would delete everything (automated.allowEmpty)',
    );
    expect(policy.allowed(app({ selfHeal: true, prune: true, allowEmpty: true }))).toBe(true);
    expect(policy.allowed(app({ selfHeal: true }))).toBe(true);
    policy.observe(pruning, { rendered: 2, live: 3 });
    expect(policy.allowed(pruning)).toBe(true);
    policy.observe(pruning, { rendered: 0, live: 0 });
    expect(policy.allowed(pruning)).toBe(true);
  });
});
