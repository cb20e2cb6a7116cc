/**
 * splitApiVersion with a cache: a sync plan names few distinct apiVersions but splits them once per task.
 */
import { splitApiVersion } from '../../domain/index.js';

const cache = new Map<string, Readonly<{ group: string; version: string }>>();

/** `apps/v1` → {group:'apps', version:'v1'}; core `v1` → {group:'', version:'v1'}. The result is shared: do not mutate. */
export function apiVersionParts(apiVersion: string): Readonly<{ group: string; version: string }> {
  let parts = cache.get(apiVersion);
  if (parts === undefined) {
    parts = splitApiVersion(apiVersion);
    if (cache.size < 1000) cache.set(apiVersion, parts);
  }
  return parts;
}
