/**
 * Field paths as server-side apply tracks them: each path is a list of elements `f:<field>`,
 * `k:<json key of a list-map item>` or `v:<json value of a set item>`; a path ending in a `k:` element stands
 * for the item itself (`.` in fieldsV1). Paths are serialized with JSON to live in Sets.
 */

import { itemKey, KEY_DEFAULTS, listSemantics, sameKey } from '../patch/list-semantics.js';
import { isJsonObject, type JsonObject } from '../store/kube-object.js';

export type FieldSet = Set<string>;

const TRACKED_METADATA = ['labels', 'annotations', 'finalizers', 'ownerReferences'];

/** The leaf paths an object sets. `scope` 'main' covers everything but status; 'status' only status. */
export function fieldSetOf(obj: JsonObject, scope: 'main' | 'status'): FieldSet {
  const out: FieldSet = new Set();
  const metadata = isJsonObject(obj.metadata) ? obj.metadata : {};
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'apiVersion' || key === 'kind') continue;
    if (key === 'metadata') {
      if (scope === 'main') {
        for (const field of TRACKED_METADATA) {
          if (metadata[field] !== undefined)
            collect(metadata[field], ['f:metadata', `f:${field}`], ['metadata', field], out);
        }
      }
      continue;
    }
    if ((key === 'status') !== (scope === 'status')) continue;
    collect(value, [`f:${key}`], [key], out);
  }
  return out;
}

function collect(value: unknown, elems: string[], names: string[], out: FieldSet): void {
  if (isJsonObject(value) && Object.keys(value).length > 0) {
    for (const [key, child] of Object.entries(value))
      collect(child, [...elems, `f:${key}`], [...names, key], out);
    return;
  }
  if (!Array.isArray(value)) {
    out.add(JSON.stringify(elems));
    return;
  }
  const semantics = listSemantics(names, 'apply');
  if (semantics.type === 'set') {
    for (const item of value) out.add(JSON.stringify([...elems, `v:${JSON.stringify(item)}`]));
    return;
  }
  const keyed =
    semantics.type === 'map' &&
    value.every((item) => itemKey(item, semantics.keys, semantics.defaults) !== undefined);
  if (!keyed || semantics.type !== 'map') {
    out.add(JSON.stringify(elems));
    return;
  }
  for (const item of value) {
    const itemElems = [...elems, `k:${JSON.stringify(itemKey(item, semantics.keys, semantics.defaults))}`];
    out.add(JSON.stringify(itemElems));
    for (const [key, child] of Object.entries(item as JsonObject)) {
      collect(child, [...itemElems, `f:${key}`], [...names, key], out);
    }
  }
}

export function parsePath(path: string): string[] {
  return JSON.parse(path) as string[];
}

/** The value at a path (undefined when absent). */
export function valueAt(root: unknown, elems: readonly string[]): unknown {
  let node: unknown = root;
  for (const elem of elems) {
    node = step(node, elem)?.value;
    if (node === undefined) return undefined;
  }
  return node;
}

function step(node: unknown, elem: string): { value: unknown; index?: number } | undefined {
  const body = elem.slice(2);
  if (elem.startsWith('f:')) return isJsonObject(node) ? { value: node[body] } : undefined;
  if (!Array.isArray(node)) return undefined;
  const wanted: unknown = JSON.parse(body);
  const index = elem.startsWith('k:')
    ? node.findIndex((item) => sameKey(item, wanted, Object.keys(wanted as JsonObject), KEY_DEFAULTS))
    : node.findIndex((item) => JSON.stringify(item) === JSON.stringify(wanted));
  return index < 0 ? undefined : { value: node[index], index };
}

/** Remove the field (or list item) at a path, in place. Missing paths are ignored. */
export function removeAt(root: JsonObject, elems: readonly string[]): void {
  const parent = valueAt(root, elems.slice(0, -1));
  const last = elems[elems.length - 1];
  if (last === undefined) return;
  if (last.startsWith('f:') && isJsonObject(parent)) {
    delete parent[last.slice(2)];
    return;
  }
  const found = step(parent, last);
  if (found?.index !== undefined && Array.isArray(parent)) parent.splice(found.index, 1);
}

/** Human form used in conflict messages: `.spec.containers[name="web"].image`. */
export function describePath(path: string): string {
  return parsePath(path)
    .map((elem) => {
      const body = elem.slice(2);
      if (elem.startsWith('f:')) return `.${body}`;
      if (elem.startsWith('v:')) return `[=${body}]`;
      const key = JSON.parse(body) as JsonObject;
      return `[${Object.entries(key)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(',')}]`;
    })
    .join('');
}
