/**
 * How a list field merges, shared by strategic merge patch (patchMergeKey/patchStrategy tags) and server-side
 * apply (listType/listMapKeys markers). A documented subset of the Kubernetes types' markers:
 * lists of named things merge by `name`, container ports by `containerPort`, Service ports by `port`,
 * volume mounts by `mountPath`, conditions by `type`, owner references by `uid`; finalizers are a set;
 * every other list is atomic (replaced whole).
 */

export type ListSemantics = { type: 'map'; keys: string[] } | { type: 'set' } | { type: 'atomic' };

const BY_NAME = new Set([
  'containers',
  'initContainers',
  'ephemeralContainers',
  'volumes',
  'env',
  'imagePullSecrets',
  'volumeClaimTemplates',
]);

const CONTAINER_LISTS = new Set(['containers', 'initContainers', 'ephemeralContainers']);

/** @param path field names from the object root to the list, e.g. ['spec','template','spec','containers']. */
export function listSemantics(path: readonly string[]): ListSemantics {
  const field = path[path.length - 1] ?? '';
  if (BY_NAME.has(field)) return { type: 'map', keys: ['name'] };
  if (field === 'ports') {
    const parent = path[path.length - 2] ?? '';
    return { type: 'map', keys: [CONTAINER_LISTS.has(parent) ? 'containerPort' : 'port'] };
  }
  if (field === 'volumeMounts') return { type: 'map', keys: ['mountPath'] };
  if (field === 'volumeDevices') return { type: 'map', keys: ['devicePath'] };
  if (field === 'conditions') return { type: 'map', keys: ['type'] };
  if (field === 'ownerReferences' && path.length === 2) return { type: 'map', keys: ['uid'] };
  if (field === 'finalizers' && path.length === 2) return { type: 'set' };
  return { type: 'atomic' };
}

/** The key fields of a list item (only those present), e.g. {name:'web'}. */
export function itemKey(item: unknown, keys: readonly string[]): Record<string, unknown> | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const record = item as Record<string, unknown>;
  const key: Record<string, unknown> = {};
  for (const k of keys) if (record[k] !== undefined) key[k] = record[k];
  return Object.keys(key).length > 0 ? key : undefined;
}

export function sameKey(a: unknown, b: unknown, keys: readonly string[]): boolean {
  const ka = itemKey(a, keys);
  const kb = itemKey(b, keys);
  return ka !== undefined && kb !== undefined && keys.every((k) => ka[k] === kb[k]);
}
