/**
 * Which resource types are served right now: the built-ins plus every served version of each
 * CustomResourceDefinition whose `Established` condition is True (as kube-apiserver starts serving a CRD).
 */
import { isJsonObject, type JsonObject, type KubeObject } from '../store/kube-object.js';
import { BUILTIN_TYPES } from './builtin-types.js';
import { ALL_VERBS, apiVersionOf, type ResourceType } from './resource-type.js';

export const CRD_TYPE_KEY = 'apiextensions.k8s.io/customresourcedefinitions';

/** A CRD-backed type carries the version's openAPIV3Schema for unknown-field checks. */
export interface CustomResourceType extends ResourceType {
  schema?: JsonObject;
}

export class TypeRegistry {
  private readonly listCrds: () => KubeObject[];
  private readonly crdVersion: (() => number) | undefined;
  private cached: { version: number; types: CustomResourceType[] } | undefined;

  /**
   * @param crdVersion a counter that moves whenever a CRD changes (ObjectStore.typeVersion): the served types
   *   are then computed once per CRD change instead of on every request. Without it, on every call.
   */
  constructor(listCrds: () => KubeObject[], crdVersion?: () => number) {
    this.listCrds = listCrds;
    this.crdVersion = crdVersion;
  }

  all(): CustomResourceType[] {
    const version = this.crdVersion?.();
    if (version !== undefined && this.cached?.version === version) return this.cached.types;
    const types = [...BUILTIN_TYPES, ...this.listCrds().filter(isEstablished).flatMap(typesOfCrd)];
    if (version !== undefined) this.cached = { version, types };
    return types;
  }

  find(group: string, version: string, plural: string): CustomResourceType | undefined {
    return this.all().find((t) => t.group === group && t.version === version && t.plural === plural);
  }

  findKind(apiVersion: string, kind: string): CustomResourceType | undefined {
    return this.all().find((t) => apiVersionOf(t) === apiVersion && t.kind === kind);
  }

  /** Any version of a kind in a group (controllers and GC look types up by owner apiVersion/kind). */
  findGroupKind(group: string, kind: string): CustomResourceType | undefined {
    return this.all().find((t) => t.group === group && t.kind === kind);
  }
}

export function isEstablished(crd: KubeObject): boolean {
  const conditions = (crd.status as { conditions?: { type: string; status: string }[] } | undefined)
    ?.conditions;
  return (conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
}

interface CrdVersion {
  name: string;
  served?: boolean;
  schema?: { openAPIV3Schema?: JsonObject };
  subresources?: { status?: unknown; scale?: unknown };
}

interface CrdSpec {
  group: string;
  scope: string;
  names: { kind: string; plural: string; singular?: string; shortNames?: string[]; categories?: string[] };
  versions: CrdVersion[];
}

function typesOfCrd(crd: KubeObject): CustomResourceType[] {
  const spec = crd.spec as CrdSpec;
  return spec.versions
    .filter((v) => v.served !== false)
    .map((v) => {
      const subresources: string[] = [];
      if (isJsonObject(v.subresources?.status)) subresources.push('status');
      if (isJsonObject(v.subresources?.scale)) subresources.push('scale');
      const type: CustomResourceType = {
        group: spec.group,
        version: v.name,
        kind: spec.names.kind,
        plural: spec.names.plural,
        singular: spec.names.singular ?? spec.names.kind.toLowerCase(),
        namespaced: spec.scope === 'Namespaced',
        shortNames: spec.names.shortNames ?? [],
        verbs: ALL_VERBS,
        subresources,
        hasGeneration: true,
      };
      if (spec.names.categories) type.categories = spec.names.categories;
      if (v.schema?.openAPIV3Schema) type.schema = v.schema.openAPIV3Schema;
      return type;
    });
}
