/**
 * A revision for manifests that do not come from git: the SHA-256 (hex) of the objects' JSON, in load order.
 * Stable for unchanged manifests, new when anything changes; it names generateName hooks (spec §5.1).
 */
import { createHash } from 'node:crypto';
import type { SourcedObject } from '../../engine/index.js';

/** 64 hex characters; the first 7 appear in generated hook names. */
export function contentRevisionOf(objects: readonly SourcedObject[]): string {
  const hash = createHash('sha256');
  for (const { object } of objects) hash.update(JSON.stringify(object)).update('\n');
  return hash.digest('hex');
}
