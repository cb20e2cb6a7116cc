import { describe, expect, it } from 'vitest';
import type { Application } from '../domain/index.js';
import { BotError } from '../domain/index.js';
import { parseSettings } from '../settings/index.js';
import { assertKnownEnvironments, environmentFor, environmentNameOf } from './environment-resolver.js';

const settings = parseSettings(
  ['environments:', '  production:', '    destinations: [{ namespace: prod }]', '  staging: {}'].join('\n'),
  '/etc/wavesync/wavesync.yaml',
);

function app(name: string, namespace: string, labels: Record<string, string> = {}): Application {
  return {
    name,
    namespace: 'argocd',
    project: 'default',
    source: { repoURL: 'file:///apps', path: name },
    destination: { server: 'https://kubernetes.default.svc', namespace },
    finalizers: [],
    labels,
    annotations: {},
    manifest: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name } },
    origin: `/apps/${name}.yaml:1`,
  };
}

describe('src/environments/environment-resolver', () => {
  it('prefers the label, then destination rules, else none', () => {
    expect(environmentNameOf(settings, app('a', 'prod', { 'wavesync.io/environment': 'staging' }))).toBe(
      'staging',
    );
    expect(environmentNameOf(settings, app('b', 'prod'))).toBe('production');
    expect(environmentFor(settings, app('c', 'dev'))).toBeUndefined();
  });

  it('refuses an Application whose label names an unknown environment, naming where and the key', () => {
    const apps = [app('ok', 'prod'), app('payments', 'pay', { 'wavesync.io/environment': 'prod' })];

    const error = (() => {
      try {
        assertKnownEnvironments(settings, apps);
      } catch (e) {
        return e as BotError;
      }
      throw new Error('expected an error');
    })();

    expect(error).toBeInstanceOf(BotError);
    expect(error.code).toBe('invalid_config');
    expect(error.message).toBe(
      '/apps/payments.yaml:1: Application payments: wavesync.io/environment: unknown environment "prod" (wavesync.yaml environments: production, staging)',
    );
  });
});
