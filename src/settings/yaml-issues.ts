/**
 * Turn zod issues about a YAML document into messages that name the file, the 1-based line and the key path,
 * using the `yaml` package's node ranges: `wavesync.yaml:7: applications[0].gti: unknown key`.
 */
import { type Document, isMap, isScalar, type LineCounter, type Node } from 'yaml';
import type { z } from 'zod';

type PathKey = PropertyKey;

/** `['applications', 0, 'git', 'repoURL']` → `applications[0].git.repoURL`. */
export function formatKeyPath(path: readonly PathKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(top level)' : out;
}

/** The node at `path`, or the deepest existing ancestor when the path does not exist (a missing key). */
function deepestNode(doc: Document, path: readonly PathKey[]): Node | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth) as unknown[], true);
    if (node && typeof node === 'object' && 'range' in (node as object)) return node as Node;
  }
  return undefined;
}

/** The key node of `key` inside the map at `path` (for unknown keys), when present. */
function keyNode(doc: Document, path: readonly PathKey[], key: string): Node | undefined {
  const map = doc.getIn(path as unknown[], true);
  if (!isMap(map)) return undefined;
  const pair = map.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
  return pair && isScalar(pair.key) ? pair.key : undefined;
}

/** 1-based line of the value at `path` (or of `key` inside it), or undefined when the document has no range. */
export function lineOfPath(
  doc: Document,
  lineCounter: LineCounter,
  path: readonly PathKey[],
  key?: string,
): number | undefined {
  const node = (key === undefined ? undefined : keyNode(doc, path, key)) ?? deepestNode(doc, path);
  const start = node?.range?.[0];
  return start === undefined ? undefined : lineCounter.linePos(start).line;
}

/** One message per problem: `<file>:<line>: <key path>: <problem>`; unknown keys are named one by one. */
export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  file: string,
  doc: Document,
  lineCounter: LineCounter,
): string[] {
  const messages: string[] = [];
  const where = (path: readonly PathKey[], key?: string) => {
    const line = lineOfPath(doc, lineCounter, path, key);
    return line === undefined ? file : `${file}:${line}`;
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        messages.push(`${where(issue.path, key)}: ${formatKeyPath([...issue.path, key])}: unknown key`);
      }
    } else {
      messages.push(`${where(issue.path)}: ${formatKeyPath(issue.path)}: ${issue.message}`);
    }
  }
  return messages;
}
