/**
 * JSON patch (RFC 6902, `application/json-patch+json`): add, remove, replace, move, copy, test.
 * Errors are the 422/500-free BadRequest-style messages kube-apiserver gives for malformed operations.
 */

import { StatusError } from '../api/status-error.js';
import { clone, isJsonObject, jsonEqual } from '../store/kube-object.js';

interface Operation {
  op: string;
  path: string;
  value?: unknown;
  from?: string;
}

type Container = Record<string, unknown> | unknown[];

function fail(message: string): StatusError {
  return new StatusError(422, 'Invalid', message);
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw fail(`add operation does not apply: doc is missing path: "${pointer}"`);
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(
  doc: unknown,
  tokens: string[],
  op: string,
  pointer: string,
): { parent: Container; last: string } {
  let node: unknown = doc;
  for (const token of tokens.slice(0, -1)) {
    node = Array.isArray(node) ? node[Number(token)] : isJsonObject(node) ? node[token] : undefined;
  }
  const last = tokens[tokens.length - 1];
  if (last === undefined || (!Array.isArray(node) && !isJsonObject(node))) {
    throw fail(`${op} operation does not apply: doc is missing path: "${pointer}": missing value`);
  }
  return { parent: node, last };
}

function read(doc: unknown, pointer: string, op: string): unknown {
  let node: unknown = doc;
  for (const token of parsePointer(pointer)) {
    node = Array.isArray(node) ? node[Number(token)] : isJsonObject(node) ? node[token] : undefined;
    if (node === undefined)
      throw fail(`${op} operation does not apply: doc is missing path: "${pointer}": missing value`);
  }
  return node;
}

function add(doc: unknown, pointer: string, value: unknown, op = 'add'): unknown {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return clone(value);
  const { parent, last } = parentOf(doc, tokens, op, pointer);
  if (Array.isArray(parent)) {
    const index = last === '-' ? parent.length : Number(last);
    if (!Number.isInteger(index) || index < 0 || index > parent.length)
      throw fail(`${op} operation does not apply: doc is missing path: "${pointer}"`);
    parent.splice(index, 0, clone(value));
  } else parent[last] = clone(value);
  return doc;
}

function remove(doc: unknown, pointer: string, op = 'remove'): unknown {
  read(doc, pointer, op);
  const { parent, last } = parentOf(doc, parsePointer(pointer), op, pointer);
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete parent[last];
  return doc;
}

function applyOne(doc: unknown, operation: Operation): unknown {
  const { op, path } = operation;
  switch (op) {
    case 'add':
      return add(doc, path, operation.value);
    case 'remove':
      return remove(doc, path);
    case 'replace':
      return add(remove(doc, path, 'replace'), path, operation.value, 'replace');
    case 'move': {
      const value = read(doc, operation.from ?? '', 'move');
      return add(remove(doc, operation.from ?? '', 'move'), path, value, 'move');
    }
    case 'copy':
      return add(doc, path, read(doc, operation.from ?? '', 'copy'), 'copy');
    case 'test':
      if (!jsonEqual(read(doc, path, 'test'), operation.value))
        throw fail(`testing value ${path} failed: test failed`);
      return doc;
    default:
      throw fail(`Unexpected kind: ${op}`);
  }
}

export function applyJsonPatch(target: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch))
    throw new StatusError(
      400,
      'BadRequest',
      'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    );
  let doc = clone(target);
  for (const operation of patch as Operation[]) doc = applyOne(doc, operation);
  return doc;
}
