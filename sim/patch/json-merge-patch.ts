/**
 * JSON merge patch (RFC 7386, `application/merge-patch+json`): maps merge recursively, `null` deletes,
 * everything else (lists included) replaces.
 */
import { clone, isJsonObject } from '../store/kube-object.js';

export function applyJsonMergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return clone(patch);
  const result = isJsonObject(target) ? clone(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyJsonMergePatch(result[key], value);
  }
  return result;
}
