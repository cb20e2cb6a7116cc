/**
 * URL path → what is addressed, following kube-apiserver's path layout:
 * `/api/v1/[namespaces/NS/]PLURAL[/NAME[/SUBRESOURCE]]` and `/apis/GROUP/VERSION/...` likewise.
 */

export type Route =
  | { kind: 'version' }
  | { kind: 'coreVersions' }
  | { kind: 'groupList' }
  | { kind: 'group'; group: string }
  | { kind: 'resourceList'; group: string; version: string }
  | ResourceRoute;

export interface ResourceRoute {
  kind: 'resource';
  group: string;
  version: string;
  plural: string;
  namespace?: string;
  name?: string;
  subresource?: string;
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

export function parseRoute(pathname: string): Route | undefined {
  const parts = pathname
    .split('/')
    .filter((p) => p !== '')
    .map(decodeURIComponent);
  if (parts[0] === 'version' && parts.length === 1) return { kind: 'version' };
  if (parts[0] === 'api') {
    if (parts.length === 1) return { kind: 'coreVersions' };
    if (parts[1] !== 'v1') return undefined;
    return parts.length === 2
      ? { kind: 'resourceList', group: '', version: 'v1' }
      : resourceRoute('', 'v1', parts.slice(2));
  }
  if (parts[0] === 'apis') {
    const [, group, version] = parts;
    if (group === undefined) return { kind: 'groupList' };
    if (version === undefined) return { kind: 'group', group };
    return parts.length === 3
      ? { kind: 'resourceList', group, version }
      : resourceRoute(group, version, parts.slice(3));
  }
  return undefined;
}

function resourceRoute(group: string, version: string, rest: string[]): ResourceRoute | undefined {
  const isNamespaceItself =
    rest[0] === 'namespaces' && (rest.length <= 2 || NAMESPACE_SUBRESOURCES.has(rest[2] ?? ''));
  if (rest[0] === 'namespaces' && !isNamespaceItself) {
    const [, namespace, plural, name, subresource, extra] = rest;
    if (namespace === undefined || plural === undefined || extra !== undefined) return undefined;
    return compact({ kind: 'resource', group, version, plural, namespace, name, subresource });
  }
  const [plural, name, subresource, extra] = rest;
  if (plural === undefined || extra !== undefined) return undefined;
  return compact({ kind: 'resource', group, version, plural, name, subresource });
}

function compact(route: ResourceRoute): ResourceRoute {
  const out: ResourceRoute = {
    kind: 'resource',
    group: route.group,
    version: route.version,
    plural: route.plural,
  };
  if (route.namespace !== undefined) out.namespace = route.namespace;
  if (route.name !== undefined) out.name = route.name;
  if (route.subresource !== undefined) out.subresource = route.subresource;
  return out;
}
