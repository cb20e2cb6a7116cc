/**
 * Discovery documents: /version, /api, /api/v1, /apis and /apis/<group>/<version>, in the legacy
 * (unaggregated) JSON form that kubectl and client-node both read.
 */
import type { ResourceType } from './resource-type.js';

export const SERVER_VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0-wavesync-sim',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'go1.23.4',
  compiler: 'gc',
  platform: 'linux/amd64',
};

const ADDRESS = [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }];

export function coreApiVersions(): object {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: ADDRESS };
}

/** The APIGroupList of every non-core group, preferred version = first served version seen. */
export function apiGroupList(types: ResourceType[]): object {
  const groups = new Map<string, string[]>();
  for (const t of types) {
    if (t.group === '') continue;
    const versions = groups.get(t.group) ?? [];
    if (!versions.includes(t.version)) versions.push(t.version);
    groups.set(t.group, versions);
  }
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [...groups].map(([name, versions]) => apiGroup(name, versions)),
  };
}

export function apiGroup(name: string, versions: string[]): object {
  const list = versions.map((version) => ({ groupVersion: `${name}/${version}`, version }));
  return { kind: 'APIGroup', apiVersion: 'v1', name, versions: list, preferredVersion: list[0] };
}

/** APIResourceList for one group/version: each resource plus its subresources (`deployments/status`). */
export function apiResourceList(groupVersion: string, types: ResourceType[]): object {
  const resources = types.flatMap((t) => [
    {
      name: t.plural,
      singularName: t.singular,
      namespaced: t.namespaced,
      kind: t.kind,
      verbs: t.verbs,
      ...(t.shortNames.length > 0 ? { shortNames: t.shortNames } : {}),
      ...(t.categories ? { categories: t.categories } : {}),
    },
    ...t.subresources.map((sub) => ({
      name: `${t.plural}/${sub}`,
      singularName: '',
      namespaced: t.namespaced,
      kind: sub === 'scale' ? 'Scale' : t.kind,
      verbs: sub === 'log' ? ['get'] : ['get', 'patch', 'update'],
      ...(sub === 'scale' ? { group: 'autoscaling', version: 'v1' } : {}),
    })),
  ]);
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources };
}
