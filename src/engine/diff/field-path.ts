/**
 * Field paths into plain JSON objects (Kubernetes objects as on the wire): a list of object keys and array
 * indexes. Shared by the diff's normalisation, ignoreDifferences and managedFields handling.
 */

export type FieldPath = readonly (string | number)[];

/** `spec.template.spec.containers[0].image`; keys that are not identifiers are quoted: `data["tls.crt"]`. */
export function formatFieldPath(path: FieldPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** The value at `path`, or undefined. */
export function valueAt(root: unknown, path: FieldPath): unknown {
  let node = root;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

function compareSegments(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

function comparePaths(a: FieldPath, b: FieldPath): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = compareSegments(a[i]!, b[i]!);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

/**
 * A deep copy of `root` without the values at `paths` (array elements are spliced out). Paths that do not exist
 * are skipped; an empty path is ignored (the root stays).
 */
export function withoutPaths<T>(root: T, paths: readonly FieldPath[]): T {
  if (paths.length === 0) return root;
  const copy = structuredClone(root);
  // Deepest and highest index first, so removing one never moves another.
  const sorted = [...paths].filter((p) => p.length > 0).sort((a, b) => comparePaths(b, a));
  for (const path of sorted) {
    const parent = valueAt(copy, path.slice(0, -1));
    const last = path.at(-1)!;
    if (Array.isArray(parent) && typeof last === 'number') {
      if (last < parent.length) parent.splice(last, 1);
    } else if (parent !== null && typeof parent === 'object' && !Array.isArray(parent)) {
      delete (parent as Record<string, unknown>)[String(last)];
    }
  }
  return copy;
}

/** Sets `value` at `path` in `root` (mutates), creating objects on the way; false when an array is in the way. */
export function setPath(root: Record<string, unknown>, path: FieldPath, value: unknown): boolean {
  let node: unknown = root;
  for (const [i, segment] of path.entries()) {
    const container = node as Record<string | number, unknown>;
    if (i === path.length - 1) {
      if (Array.isArray(container) && typeof segment !== 'number') return false;
      container[segment] = value;
      return true;
    }
    let next = container[segment];
    if (next === null || typeof next !== 'object') {
      if (Array.isArray(container) || typeof path[i + 1] === 'number') return false;
      next = {};
      container[segment] = next;
    }
    node = next;
  }
  return false;
}
