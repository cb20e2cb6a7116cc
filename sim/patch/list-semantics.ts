/**
 * How a list field merges, for strategic merge patch (the Go types' `patchMergeKey`/`patchStrategy` tags) and for
 * server-side apply (their `listType`/`listMapKey` markers, which structured-merge-diff reads), as Kubernetes
 * v1.32 declares them for the core types the simulator serves:
 *
 * | list | strategic merge key | apply list-map keys |
 * | --- | --- | --- |
 * | containers, initContainers, ephemeralContainers, volumes, env, imagePullSecrets | name | name |
 * | container ports | containerPort | containerPort, protocol (default TCP) |
 * | Service ports | port | port, protocol (default TCP) |
 * | volumeMounts / volumeDevices | mountPath / devicePath | the same |
 * | hostAliases | ip | ip |
 * | topologySpreadConstraints | topologyKey | topologyKey, whenUnsatisfiable |
 * | conditions | type | type |
 * | metadata.ownerReferences | uid | uid |
 *
 * `metadata.finalizers` is a set; every other list (volumeClaimTemplates, tolerations, command, args, rules…) is
 * atomic: replaced whole. A key field the item leaves out counts with its default (a port without `protocol` is
 * the TCP port), as the API server defaults it before comparing.
 */

export type ListSemantics =
  | { type: 'map'; keys: string[]; defaults?: Record<string, unknown> }
  | { type: 'set' }
  | { type: 'atomic' };

/** Which markers to read: `strategic` (patchMergeKey) or `apply` (listMapKey). */
export type MergeFlavour = 'strategic' | 'apply';

const BY_NAME = new Set([
  'containers',
  'initContainers',
  'ephemeralContainers',
  'volumes',
  'env',
  'imagePullSecrets',
]);

const CONTAINER_LISTS = new Set(['containers', 'initContainers', 'ephemeralContainers']);

/** The defaults of list-map key fields (a port's `protocol`), for matching items by a recorded `k:` key. */
export const KEY_DEFAULTS: Readonly<Record<string, unknown>> = { protocol: 'TCP' };
const TCP = { protocol: KEY_DEFAULTS.protocol };

/** @param path field names from the object root to the list, e.g. ['spec','template','spec','containers']. */
export function listSemantics(path: readonly string[], flavour: MergeFlavour = 'strategic'): ListSemantics {
  const field = path[path.length - 1] ?? '';
  const apply = flavour === 'apply';
  if (BY_NAME.has(field)) return { type: 'map', keys: ['name'] };
  if (field === 'ports') {
    const parent = path[path.length - 2] ?? '';
    const key = CONTAINER_LISTS.has(parent) ? 'containerPort' : 'port';
    return apply ? { type: 'map', keys: [key, 'protocol'], defaults: TCP } : { type: 'map', keys: [key] };
  }
  if (field === 'volumeMounts') return { type: 'map', keys: ['mountPath'] };
  if (field === 'volumeDevices') return { type: 'map', keys: ['devicePath'] };
  if (field === 'hostAliases') return { type: 'map', keys: ['ip'] };
  if (field === 'topologySpreadConstraints')
    return { type: 'map', keys: apply ? ['topologyKey', 'whenUnsatisfiable'] : ['topologyKey'] };
  if (field === 'conditions') return { type: 'map', keys: ['type'] };
  if (field === 'ownerReferences' && path.length === 2) return { type: 'map', keys: ['uid'] };
  if (field === 'finalizers' && path.length === 2) return { type: 'set' };
  return { type: 'atomic' };
}

/**
 * The key fields of a list item, e.g. {name:'web'} or {containerPort:80, protocol:'TCP'}: those present, and
 * those absent that have a default; undefined when none is present.
 */
export function itemKey(
  item: unknown,
  keys: readonly string[],
  defaults: Record<string, unknown> = {},
): Record<string, unknown> | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const record = item as Record<string, unknown>;
  const key: Record<string, unknown> = {};
  let present = false;
  for (const k of keys) {
    if (record[k] !== undefined) {
      key[k] = record[k];
      present = true;
    } else if (defaults[k] !== undefined) key[k] = defaults[k];
  }
  return present ? key : undefined;
}

/** True when two list items have the same key (itemKey, defaults filled in). */
export function sameKey(
  a: unknown,
  b: unknown,
  keys: readonly string[],
  defaults: Record<string, unknown> = {},
): boolean {
  const ka = itemKey(a, keys, defaults);
  const kb = itemKey(b, keys, defaults);
  return ka !== undefined && kb !== undefined && keys.every((k) => ka[k] === kb[k]);
}
