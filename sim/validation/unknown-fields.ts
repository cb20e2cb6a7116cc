/**
 * Unknown-field detection. Built-in kinds: top-level fields and metadata fields are checked against the
 * kind's field list (deeper built-in schemas are not modelled). Custom resources: the CRD version's
 * openAPIV3Schema (properties, additionalProperties, x-kubernetes-preserve-unknown-fields), as the apiserver's
 * structural pruning does. Paths are dotted (`spec.foo`), as the strict decoding error names them.
 */
import type { CustomResourceType } from '../api/type-registry.js';
import { isJsonObject, type JsonObject, type KubeObject } from '../store/kube-object.js';

const METADATA_FIELDS = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);

export function findUnknownFields(obj: KubeObject, type: CustomResourceType): string[] {
  const unknown = Object.keys(obj.metadata ?? {})
    .filter((k) => !METADATA_FIELDS.has(k))
    .map((k) => `metadata.${k}`);
  if (type.schema) return [...unknown, ...unknownBySchema(obj, type.schema, '')];
  const allowed = type.topLevelFields;
  if (!allowed) return unknown;
  const top = Object.keys(obj).filter(
    (k) => !['apiVersion', 'kind', 'metadata'].includes(k) && !allowed.includes(k),
  );
  return [...unknown, ...top];
}

function unknownBySchema(value: unknown, schema: JsonObject, prefix: string): string[] {
  if (!isJsonObject(value) || schema['x-kubernetes-preserve-unknown-fields'] === true) return [];
  const properties = isJsonObject(schema.properties) ? schema.properties : undefined;
  const additional = schema.additionalProperties;
  const out: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    if (prefix === '' && ['apiVersion', 'kind', 'metadata'].includes(key)) continue;
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const childSchema =
      properties?.[key] ?? (isJsonObject(additional) ? additional : additional === true ? {} : undefined);
    if (!isJsonObject(childSchema)) {
      out.push(path);
      continue;
    }
    out.push(...unknownInValue(child, childSchema, path));
  }
  return out;
}

function unknownInValue(value: unknown, schema: JsonObject, path: string): string[] {
  if (Array.isArray(value) && isJsonObject(schema.items)) {
    const items = schema.items;
    return value.flatMap((item, i) => unknownInValue(item, items, `${path}[${i}]`));
  }
  if (
    isJsonObject(value) &&
    (schema.properties || schema.additionalProperties !== undefined || schema.type === 'object')
  ) {
    return unknownBySchema(value, schema, path);
  }
  return [];
}

/** Drop the given dotted paths from an object (what Warn/Ignore field validation does). */
export function pruneFields(obj: KubeObject, paths: string[]): void {
  for (const path of paths) {
    const parts = path.split('.');
    let node: unknown = obj;
    for (const part of parts.slice(0, -1)) {
      const match = /^(.*)\[(\d+)\]$/.exec(part);
      node = match
        ? ((node as JsonObject)[match[1] ?? ''] as unknown[])?.[Number(match[2])]
        : (node as JsonObject)?.[part];
    }
    const last = parts[parts.length - 1] ?? '';
    if (isJsonObject(node)) delete node[last];
  }
}
