/**
 * A revision for manifests that do not come from git: the SHA-256 (hex) of the objects' JSON, in load order.
 * Stable for unchanged manifests, new when anything changes; it names generateName hooks (spec §5.1).
 */
import { createHash } from 'node:crypto';
import { ITEMS_PER_YIELD, runAtOnce, type SlicedWork, type SourcedObject } from '../../engine/index.js';

/** 64 hex characters; the first 7 appear in generated hook names. */
export function contentRevisionOf(objects: readonly SourcedObject[]): string {
  return runAtOnce(contentRevisionWork(objects));
}

/** contentRevisionOf as SlicedWork: 50,000 objects' JSON is ~70 ms of CPU, which held the bot's loop in one piece. */
export function* contentRevisionWork(objects: readonly SourcedObject[]): SlicedWork<string> {
  const hash = createHash('sha256');
  let count = 0;
  for (const { object } of objects) {
    if (++count % ITEMS_PER_YIELD === 0) yield;
    hash.update(JSON.stringify(object)).update('\n');
  }
  return hash.digest('hex');
}
