/**
 * Discovery documents: /version, /api, /api/v1, /apis and /apis/<group>/<version> in the legacy (unaggregated)
 * JSON form, and /api and /apis in the aggregated form (apidiscovery.k8s.io/v2, GA in Kubernetes 1.30) when the
 * Accept header asks for it, as the API server answers them: one `APIGroupDiscoveryList` holds every group, its
 * versions (preferred first) and their resources with their subresources, so a client learns everything served in
 * two requests instead of one per group version (kubectl and client-go ask for it first).
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

/** The media type of the aggregated discovery documents (apidiscovery.k8s.io/v2, JSON). */
export const AGGREGATED_DISCOVERY_TYPE =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

interface MediaRange {
  type: string;
  params: Map<string, string>;
  q: number;
}

function mediaRangesOf(accept: string): MediaRange[] {
  return accept
    .split(',')
    .map((range) => {
      const [type = '', ...rest] = range.split(';').map((part) => part.trim());
      const params = new Map<string, string>();
      for (const param of rest) {
        const eq = param.indexOf('=');
        if (eq > 0) params.set(param.slice(0, eq).trim().toLowerCase(), param.slice(eq + 1).trim());
      }
      const q = Number(params.get('q') ?? '1');
      params.delete('q');
      return { type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0 };
    })
    .filter((range) => range.type !== '' && range.q > 0);
}

/**
 * Whether `/api` or `/apis` is answered in the aggregated form: the Accept header's most preferred media range the
 * simulator serves is `application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList` (kubectl lists it
 * before plain `application/json`). Ranges it does not serve (protobuf, the v2beta1 form that 1.32 still serves
 * too) are passed over; a plain JSON range, a wildcard or no Accept gives the legacy form.
 */
export function wantsAggregatedDiscovery(accept: string | undefined): boolean {
  const ranges = mediaRangesOf(accept ?? '').sort((a, b) => b.q - a.q);
  for (const { type, params } of ranges) {
    const aggregated =
      type === 'application/json' &&
      params.get('g') === 'apidiscovery.k8s.io' &&
      params.get('v') === 'v2' &&
      params.get('as') === 'APIGroupDiscoveryList';
    if (aggregated) return true;
    if (params.size === 0 && ['application/json', 'application/*', '*/*'].includes(type)) return false;
  }
  return false;
}

type LegacyResource = {
  name: string;
  singularName: string;
  namespaced: boolean;
  kind: string;
  verbs: string[];
  group?: string;
  version?: string;
  shortNames?: string[];
  categories?: string[];
};

/** A GroupVersionKind as discovery gives it: group and version empty when they are the resource's own. */
function responseKindOf(resource: LegacyResource): { group: string; version: string; kind: string } {
  return { group: resource.group ?? '', version: resource.version ?? '', kind: resource.kind };
}

/**
 * The APIGroupDiscoveryList of the core group (`/api`, one item named '') or of every other group (`/apis`), in
 * the order of the APIGroupList, each group's versions in the order of preference (the preferred one first). Each
 * resource is its APIResourceList entry in the aggregated shape (`resource`, `responseKind`, `scope`,
 * `singularResource`, `verbs`, `shortNames`, `categories`), with its subresources (`deployments/status`) folded into
 * its `subresources`, as the API server converts them.
 */
export function aggregatedDiscovery(types: ResourceType[], core: boolean): object {
  const byGroup = new Map<string, Map<string, ResourceType[]>>();
  for (const t of types) {
    if ((t.group === '') !== core) continue;
    const versions = byGroup.get(t.group) ?? new Map<string, ResourceType[]>();
    versions.set(t.version, [...(versions.get(t.version) ?? []), t]);
    byGroup.set(t.group, versions);
  }
  const items = [...byGroup].map(([group, versions]) => ({
    metadata: group === '' ? {} : { name: group },
    versions: [...versions].map(([version, served]) => ({
      version,
      resources: aggregatedResources(apiResourceList(group === '' ? version : `${group}/${version}`, served)),
      freshness: 'Current',
    })),
  }));
  return { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items };
}

function aggregatedResources(list: { resources: LegacyResource[] }): object[] {
  const resources = new Map<string, Record<string, unknown> & { subresources: object[] }>();
  for (const r of list.resources) {
    const [name = '', subresource] = r.name.split('/');
    if (subresource === undefined) {
      resources.set(name, {
        resource: name,
        responseKind: responseKindOf(r),
        scope: r.namespaced ? 'Namespaced' : 'Cluster',
        singularResource: r.singularName,
        verbs: r.verbs,
        ...(r.shortNames ? { shortNames: r.shortNames } : {}),
        ...(r.categories ? { categories: r.categories } : {}),
        subresources: [],
      });
    } else {
      resources
        .get(name)
        ?.subresources.push({ subresource, responseKind: responseKindOf(r), verbs: r.verbs });
    }
  }
  return [...resources.values()].map(({ subresources, ...resource }) =>
    subresources.length > 0 ? { ...resource, subresources } : resource,
  );
}

/** APIResourceList for one group/version: each resource plus its subresources (`deployments/status`). */
export function apiResourceList(
  groupVersion: string,
  types: ResourceType[],
): { kind: string; apiVersion: string; groupVersion: string; resources: LegacyResource[] } {
  const resources = types.flatMap((t): LegacyResource[] => [
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
