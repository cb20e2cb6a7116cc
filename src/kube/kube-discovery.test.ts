import { describe, expect, it } from 'vitest';
import { AGGREGATED_DISCOVERY_ACCEPT, KubeDiscovery } from './kube-discovery.js';
import type { KubeHttp, KubeRequest } from './kube-http.js';

const LIST_VERBS = ['get', 'list', 'delete'];

/** A KubeHttp answering GETs from `documents` by path, recording each request. */
function fakeHttp(documents: Record<string, unknown>): { http: KubeHttp; asked: KubeRequest[] } {
  const asked: KubeRequest[] = [];
  const http = {
    async request(request: KubeRequest) {
      asked.push(request);
      if (!(request.path in documents)) throw new Error(`404 ${request.path}`);
      return documents[request.path];
    },
  } as unknown as KubeHttp;
  return { http, asked };
}

const resource = (name: string, kind: string, scope = 'Namespaced') => ({
  resource: name,
  responseKind: { group: '', version: '', kind },
  scope,
  singularResource: kind.toLowerCase(),
  verbs: LIST_VERBS,
});

const aggregated = (items: object[]) => ({
  kind: 'APIGroupDiscoveryList',
  apiVersion: 'apidiscovery.k8s.io/v2',
  items,
});

describe('KubeDiscovery.served', () => {
  it('reads the aggregated documents, asks a Stale version on its own, and skips resources without a kind', async () => {
    const { http, asked } = fakeHttp({
      '/api': aggregated([
        { metadata: {}, versions: [{ version: 'v1', resources: [resource('pods', 'Pod')] }] },
      ]),
      '/apis': aggregated([
        {
          metadata: { name: 'metrics.example.com' },
          versions: [
            { version: 'v1', freshness: 'Stale', resources: [] },
            { version: 'v1beta1', resources: [{ ...resource('nodes', ''), responseKind: null }] },
          ],
        },
      ]),
      '/apis/metrics.example.com/v1': {
        resources: [{ name: 'pods', kind: 'PodMetrics', namespaced: true, verbs: LIST_VERBS }],
      },
    });
    const discovery = new KubeDiscovery(http, 'default');
    expect(await discovery.served()).toEqual([
      {
        name: '',
        versions: [
          {
            apiVersion: 'v1',
            resources: [{ name: 'pods', kind: 'Pod', namespaced: true, verbs: LIST_VERBS }],
          },
        ],
      },
      {
        name: 'metrics.example.com',
        versions: [
          {
            apiVersion: 'metrics.example.com/v1',
            resources: [{ name: 'pods', kind: 'PodMetrics', namespaced: true, verbs: LIST_VERBS }],
          },
          { apiVersion: 'metrics.example.com/v1beta1', resources: [] },
        ],
      },
    ]);
    expect(asked.map((r) => [r.path, r.accept])).toEqual([
      ['/api', AGGREGATED_DISCOVERY_ACCEPT],
      ['/apis', AGGREGATED_DISCOVERY_ACCEPT],
      ['/apis/metrics.example.com/v1', undefined],
    ]);
    // Every version is cached: a kind's path needs no request.
    expect(
      await discovery.pathOf({ apiVersion: 'v1', kind: 'Pod', namespace: '', name: 'p' }, 'object'),
    ).toBe('/api/v1/namespaces/default/pods/p');
    expect(asked).toHaveLength(3);
  });

  it('leaves out a Stale version other than the preferred one, so that its server being down fails nothing (the legacy walk asked only the preferred version); a kind of it is asked for on its own', async () => {
    const { http, asked } = fakeHttp({
      '/api': aggregated([]),
      '/apis': aggregated([
        {
          metadata: { name: 'metrics.example.com' },
          versions: [
            { version: 'v1', freshness: 'Current', resources: [resource('pods', 'PodMetrics')] },
            { version: 'v1beta1', freshness: 'Stale', resources: [] },
          ],
        },
      ]),
      // No '/apis/metrics.example.com/v1beta1': its aggregated API server does not answer.
    });
    const discovery = new KubeDiscovery(http, 'default');
    expect(await discovery.served()).toEqual([
      {
        name: 'metrics.example.com',
        versions: [
          {
            apiVersion: 'metrics.example.com/v1',
            resources: [{ name: 'pods', kind: 'PodMetrics', namespaced: true, verbs: LIST_VERBS }],
          },
        ],
      },
    ]);
    expect(asked.map((r) => r.path)).toEqual(['/api', '/apis']);
    await expect(discovery.resource('metrics.example.com/v1beta1', 'PodMetrics')).rejects.toThrow(
      '404 /apis/metrics.example.com/v1beta1',
    );
  });

  it('walks the legacy answers (APIVersions, APIGroupList) to each preferred version, asking /api and /apis once', async () => {
    const { http, asked } = fakeHttp({
      '/api': { kind: 'APIVersions', versions: ['v1'] },
      '/apis': {
        kind: 'APIGroupList',
        groups: [{ name: 'apps', preferredVersion: { groupVersion: 'apps/v1' } }],
      },
      '/api/v1': { resources: [{ name: 'pods', kind: 'Pod', namespaced: true, verbs: LIST_VERBS }] },
      '/apis/apps/v1': {
        resources: [{ name: 'deployments', kind: 'Deployment', namespaced: true, verbs: LIST_VERBS }],
      },
    });
    const discovery = new KubeDiscovery(http, 'default');
    const groups = await discovery.served();
    expect(groups.map((g) => [g.name, g.versions.map((v) => v.apiVersion)])).toEqual([
      ['', ['v1']],
      ['apps', ['apps/v1']],
    ]);
    expect(asked.map((r) => r.path)).toEqual(['/api', '/apis', '/api/v1', '/apis/apps/v1']);
  });
});
