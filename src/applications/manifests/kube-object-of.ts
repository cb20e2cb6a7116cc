/**
 * Validation of one parsed document as a Kubernetes object: `apiVersion`, `kind` and `metadata.name` must be
 * non-empty strings (a hook may have `metadata.generateName` instead, spec §5.1); `metadata.annotations` and
 * `metadata.labels` must map to strings. Kubernetes rejects non-string annotation values, and Argo CD would read
 * the whole annotation map of such an object as empty (spec §2), so wavesync rejects them up front instead of
 * planning an object whose waves and hooks silently vanished.
 */

import type { KubeObject } from '../../domain/index.js';
import { ManifestError } from '../../domain/index.js';
import { isHook } from '../../engine/index.js';

/** Where a value sits: the file and the 1-based line of a path inside the document. */
export interface Locator {
  file: string;
  /** Line of the document (or of the List item) itself. */
  line: number;
  /** Line of a key path inside it, when known; falls back to `line`. */
  lineOf(path: readonly string[]): number;
}

/** The value as a KubeObject, or a ManifestError naming the file, line and missing or malformed field. */
export function kubeObjectOf(value: unknown, at: Locator): KubeObject {
  if (!isRecord(value)) fail(at, at.line, 'document is not a Kubernetes object (expected a mapping)');
  requireString(value, 'apiVersion', at);
  requireString(value, 'kind', at);
  const metadata = value.metadata;
  if (!isRecord(metadata))
    fail(at, at.line, `${value.kind} has no metadata (a mapping with a name is required)`);
  requireStringMap(metadata, 'annotations', at);
  requireStringMap(metadata, 'labels', at);
  const obj = value as KubeObject;
  const named = isNonEmptyString(metadata.name);
  const generated = isNonEmptyString(metadata.generateName) && isHook(obj);
  if (!named && !generated) {
    if (metadata.name !== undefined && metadata.name !== null && typeof metadata.name !== 'string')
      fail(at, at.lineOf(['metadata', 'name']), `${value.kind}: metadata.name ${notAString(metadata.name)}`);
    const problem = isNonEmptyString(metadata.generateName)
      ? 'metadata.generateName is only allowed on hooks; metadata.name is required'
      : 'metadata.name is required';
    fail(at, at.lineOf(['metadata']), `${value.kind}: ${problem}`);
  }
  if (metadata.namespace !== undefined && typeof metadata.namespace !== 'string') {
    fail(at, at.lineOf(['metadata', 'namespace']), `${value.kind}: metadata.namespace must be a string`);
  }
  return obj;
}

function requireString(value: Record<string, unknown>, key: string, at: Locator): void {
  if (isNonEmptyString(value[key])) return;
  const problem = value[key] === undefined ? 'is missing' : 'must be a non-empty string';
  fail(at, at.lineOf([key]), `${key} ${problem}`);
}

function requireStringMap(metadata: Record<string, unknown>, key: string, at: Locator): void {
  const map = metadata[key];
  if (map === undefined || map === null) return;
  if (!isRecord(map)) fail(at, at.lineOf(['metadata', key]), `metadata.${key} must be a mapping`);
  for (const [name, value] of Object.entries(map)) {
    if (typeof value === 'string') continue;
    fail(at, at.lineOf(['metadata', key, name]), `metadata.${key} value of ${name} ${notAString(value)}`);
  }
}

/**
 * Why a value is no string, with the fix. Manifests are read as kubectl and Argo CD read them (YAML 1.1 through
 * go-yaml v2), where an unquoted yes, no, on, off, y or n is a boolean, so the written word may not be the one shown.
 */
function notAString(value: unknown): string {
  const written = JSON.stringify(value);
  if (typeof value !== 'boolean') return `must be a string, got ${written} (quote it: "${String(value)}")`;
  return `must be a string, got ${written} (quote it: an unquoted true, false, yes, no, on, off, y or n is a boolean in YAML as kubectl and Argo CD read it)`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function fail(at: Locator, line: number, problem: string): never {
  throw new ManifestError(at.file, line, problem);
}
