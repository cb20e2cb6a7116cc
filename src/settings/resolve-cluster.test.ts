import { describe, expect, it } from 'vitest';
import { parseSettings } from './load-settings.js';
import { resolveCluster } from './resolve-cluster.js';

const settings = parseSettings(
  [
    'clusters:',
    '  - { server: "https://kubernetes.default.svc", name: in-cluster, context: dev }',
    '  - { name: prod-eu, context: prod, kubeconfig: kube/prod.yaml }',
  ].join('\n'),
  '/etc/wavesync/wavesync.yaml',
);

describe('resolveCluster', () => {
  it('matches by server, then by name, resolving the kubeconfig path', () => {
    expect(resolveCluster(settings, { server: 'https://kubernetes.default.svc' })).toEqual({
      context: 'dev',
      kubeconfig: undefined,
    });
    expect(resolveCluster(settings, { name: 'prod-eu', namespace: 'x' })).toEqual({
      context: 'prod',
      kubeconfig: '/etc/wavesync/kube/prod.yaml',
    });
  });

  it('names the unknown destination and the known clusters', () => {
    expect(() => resolveCluster(settings, { server: 'https://other' })).toThrow(
      'no cluster in wavesync.yaml clusters matches destination server https://other (known: https://kubernetes.default.svc, prod-eu)',
    );
  });

  it('uses the current context when no clusters are configured', () => {
    const bare = parseSettings('', '/x/wavesync.yaml');

    expect(resolveCluster(bare, { server: 'https://anything' })).toEqual({
      context: undefined,
      kubeconfig: undefined,
    });
  });
});
