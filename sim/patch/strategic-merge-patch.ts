/**
 * Strategic merge patch (`application/strategic-merge-patch+json`), the documented subset:
 * maps merge recursively and `null` deletes a key; lists merge by the keys of list-semantics.ts (containers,
 * env, volumes by name; ports by containerPort/port; ...), other lists are replaced; directives
 * `$patch: replace`, `$patch: delete` (on a map or a list item), `$deleteFromPrimitiveList/<field>` and
 * `$setElementOrder/<field>` (ordering honoured) are understood; `$retainKeys` is ignored.
 */
import { clone, isJsonObject, type JsonObject } from '../store/kube-object.js';
import { listSemantics, sameKey } from './list-semantics.js';

const DELETE = Symbol('delete');

export function applyStrategicMergePatch(target: unknown, patch: unknown): unknown {
  const result = mergeMap(isJsonObject(target) ? target : {}, isJsonObject(patch) ? patch : {}, []);
  return result === DELETE ? {} : result;
}

function mergeMap(original: JsonObject, patch: JsonObject, path: string[]): JsonObject | typeof DELETE {
  if (patch.$patch === 'delete') return DELETE;
  if (patch.$patch === 'replace') return stripDirectives(patch);
  const result = clone(original);
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$deleteFromPrimitiveList/')) {
      const field = key.slice('$deleteFromPrimitiveList/'.length);
      const current = result[field];
      if (Array.isArray(current) && Array.isArray(value))
        result[field] = current.filter((v) => !value.includes(v));
      continue;
    }
    if (key.startsWith('$')) continue;
    if (value === null) {
      delete result[key];
      continue;
    }
    const merged = mergeValue(result[key], value, [...path, key]);
    if (merged === DELETE) delete result[key];
    else result[key] = merged;
  }
  for (const [key, order] of Object.entries(patch)) {
    if (!key.startsWith('$setElementOrder/') || !Array.isArray(order)) continue;
    const field = key.slice('$setElementOrder/'.length);
    const list = result[field];
    if (Array.isArray(list)) result[field] = reorder(list, order, listSemantics([...path, field]));
  }
  return result;
}

function mergeValue(original: unknown, patch: unknown, path: string[]): unknown {
  if (isJsonObject(patch)) return mergeMap(isJsonObject(original) ? original : {}, patch, path);
  if (Array.isArray(patch)) return mergeList(Array.isArray(original) ? original : [], patch, path);
  return clone(patch);
}

function mergeList(original: unknown[], patch: unknown[], path: string[]): unknown[] {
  const semantics = listSemantics(path);
  if (semantics.type === 'set') return [...original, ...patch.filter((v) => !original.includes(v))];
  if (semantics.type === 'atomic')
    return patch.map((item) => (isJsonObject(item) ? stripDirectives(item) : clone(item)));
  if (patch.some((item) => isJsonObject(item) && item.$patch === 'replace')) {
    return patch
      .filter((item) => !(isJsonObject(item) && item.$patch === 'replace'))
      .map((item) => clone(item));
  }
  const result = clone(original);
  for (const item of patch) {
    const index = result.findIndex((existing) => sameKey(existing, item, semantics.keys));
    if (isJsonObject(item) && item.$patch === 'delete') {
      if (index >= 0) result.splice(index, 1);
      continue;
    }
    if (index < 0) {
      result.push(isJsonObject(item) ? stripDirectives(item) : clone(item));
      continue;
    }
    const existing = result[index];
    const merged =
      isJsonObject(item) && isJsonObject(existing) ? mergeMap(existing, item, path) : clone(item);
    if (merged === DELETE) result.splice(index, 1);
    else result[index] = merged;
  }
  return result;
}

function reorder(list: unknown[], order: unknown[], semantics: ReturnType<typeof listSemantics>): unknown[] {
  if (semantics.type !== 'map') return list;
  const position = (item: unknown) => {
    const i = order.findIndex((o) => sameKey(o, item, semantics.keys));
    return i < 0 ? order.length : i;
  };
  return [...list].sort((a, b) => position(a) - position(b));
}

function stripDirectives(map: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(map)) if (!key.startsWith('$')) out[key] = clone(value);
  return out;
}
