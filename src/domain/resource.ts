/**
 * KubeObject and ResourceKey — the minimal structural view of a Kubernetes object the domain needs.
 */

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  [key: string]: unknown;
}

/** Any Kubernetes object: apiVersion, kind and metadata are typed, the rest is open. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

/** Identity of a resource as gitops-engine keys it; `group` is '' for the core group, `namespace` '' when cluster-scoped. */
export interface ResourceKey {
  group: string;
  kind: string;
  namespace: string;
  name: string;
}

/** Split `apiVersion` into group ('' for core) and version: `apps/v1` → {group:'apps', version:'v1'}. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** The ResourceKey of an object (namespace '' when unset). */
export function resourceKeyOf(obj: KubeObject): ResourceKey {
  return {
    group: splitApiVersion(obj.apiVersion).group,
    kind: obj.kind,
    namespace: obj.metadata.namespace ?? '',
    name: obj.metadata.name ?? '',
  };
}

/** `group/Kind/namespace/name`, as gitops-engine prints keys (core group renders as empty). */
export function formatResourceKey(key: ResourceKey): string {
  return `${key.group}/${key.kind}/${key.namespace}/${key.name}`;
}

/** Short human form for messages: `Deployment/web` (namespace and group omitted). */
export function shortName(key: Pick<ResourceKey, 'kind' | 'name'>): string {
  return `${key.kind}/${key.name}`;
}
