/**
 * A served resource type: what discovery lists for it and how the store keys it.
 */

export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  /** Resource name in URLs (lower-case plural), e.g. `deployments`. */
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  verbs: string[];
  /** Subresources served: `status` (writes to the main resource keep status), `log`, `scale`. */
  subresources: string[];
  /** Whether metadata.generation is kept and bumped on spec changes. */
  hasGeneration: boolean;
  /** Names of the top-level fields besides apiVersion/kind/metadata; undefined = any (CRDs are checked by schema). */
  topLevelFields?: string[];
  categories?: string[];
}

export const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export function apiVersionOf(type: ResourceType): string {
  return type.group === '' ? type.version : `${type.group}/${type.version}`;
}

/** `deployments.apps` / `configmaps` — the qualified resource used in Status messages. */
export function qualifiedResource(type: ResourceType): string {
  return type.group === '' ? type.plural : `${type.plural}.${type.group}`;
}

/** `Deployment.apps` / `ConfigMap` — the qualified kind used in Invalid messages. */
export function qualifiedKind(type: ResourceType): string {
  return type.group === '' ? type.kind : `${type.kind}.${type.group}`;
}

/** Store key of a type: group/plural (versions of one group share objects). */
export function typeKey(type: Pick<ResourceType, 'group' | 'plural'>): string {
  return `${type.group}/${type.plural}`;
}
