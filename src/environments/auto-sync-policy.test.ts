import { describe, expect, it } from 'vitest';
import type { Application } from '../domain/index.js';
import { parseSettings } from '../settings/index.js';
import { autoSyncAllowed, driftChannelOf } from './auto-sync-policy.js';

const settings = parseSettings(
  [
    'defaults: { driftDetection: { channel: C0DEFAULT } }',
    'environments:',
    '  production: { requireApproval: true, approvers: { users: [U0SAM] }, notifications: { channel: C0PROD } }',
    '  staging: {}',
    '  frozen: { freezeWindows: [{ name: always, cron: "0 0 * * *", durationMinutes: 1440 }] }',
    '  manual: { autoSync: false }',
  ].join('\n'),
  '/tmp/wavesync.yaml',
);

function app(environment?: string, annotations: Record<string, string> = {}): Application {
  return {
    name: 'shop',
    namespace: 'argocd',
    project: 'default',
    source: { repoURL: '' },
    destination: { namespace: 'shop' },
    finalizers: [],
    labels: environment ? { 'wavesync.io/environment': environment } : {},
    annotations,
    manifest: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'shop' } },
    origin: 'test',
  };
}

describe('auto-sync policy', () => {
  const now = new Date('2026-11-25T10:00:00Z');

  it('allows automatic syncs only outside approval, autoSync: false and freeze windows', () => {
    expect(autoSyncAllowed(settings, app(), now)).toBe(true);
    expect(autoSyncAllowed(settings, app('staging'), now)).toBe(true);
    expect(autoSyncAllowed(settings, app('production'), now)).toBe(false);
    expect(autoSyncAllowed(settings, app('manual'), now)).toBe(false);
    expect(autoSyncAllowed(settings, app('frozen'), now)).toBe(false);
  });

  it('rejects autoSync: true next to requireApproval', () => {
    expect(() =>
      parseSettings(
        'environments: { production: { requireApproval: true, approvers: { users: [U0SAM] }, autoSync: true } }',
        '/tmp/wavesync.yaml',
      ),
    ).toThrow(/autoSync.*requireApproval/);
  });

  it('posts in the annotated channel, else the environment notifications channel, else the default', () => {
    expect(driftChannelOf(settings, app('production', { 'wavesync.io/channel': 'C0SHOP' }))).toBe('C0SHOP');
    expect(driftChannelOf(settings, app('production'))).toBe('C0PROD');
    expect(driftChannelOf(settings, app('staging'))).toBe('C0DEFAULT');
  });
});
