/**
 * metadata.managedFields bookkeeping: converting between fieldsV1 trees and path sets, and recording
 * ownership for Update operations (create, update, non-apply patches), as the apiserver's field manager does.
 */
import {
  type FieldsV1,
  jsonEqual,
  type KubeObject,
  type ManagedFieldsEntry,
  timestamp,
} from '../store/kube-object.js';
import { type FieldSet, fieldSetOf, parsePath, valueAt } from './field-path.js';

export interface Manager {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time: string;
  subresource?: string;
  fields: FieldSet;
}

function toFieldsV1(fields: FieldSet): FieldsV1 {
  const root: FieldsV1 = {};
  for (const path of [...fields].sort()) {
    const elems = parsePath(path);
    let node = root;
    for (const elem of elems) {
      node[elem] ??= {};
      node = node[elem];
    }
    if (elems[elems.length - 1]?.startsWith('k:')) node['.'] = {};
  }
  return root;
}

function fromFieldsV1(tree: FieldsV1, prefix: string[] = [], out: FieldSet = new Set()): FieldSet {
  for (const [key, child] of Object.entries(tree)) {
    if (key === '.') out.add(JSON.stringify(prefix));
    else if (Object.keys(child).length === 0) out.add(JSON.stringify([...prefix, key]));
    else fromFieldsV1(child, [...prefix, key], out);
  }
  return out;
}

export function readManagers(obj: KubeObject | undefined): Manager[] {
  return (obj?.metadata.managedFields ?? []).map((entry) => {
    const manager: Manager = {
      manager: entry.manager,
      operation: entry.operation,
      apiVersion: entry.apiVersion,
      time: entry.time,
      fields: fromFieldsV1(entry.fieldsV1 ?? {}),
    };
    if (entry.subresource) manager.subresource = entry.subresource;
    return manager;
  });
}

export function writeManagers(obj: KubeObject, managers: Manager[]): void {
  const entries: ManagedFieldsEntry[] = managers
    .filter((m) => m.fields.size > 0)
    .map((m) => {
      const entry: ManagedFieldsEntry = {
        manager: m.manager,
        operation: m.operation,
        apiVersion: m.apiVersion,
        time: m.time,
        fieldsType: 'FieldsV1',
        fieldsV1: toFieldsV1(m.fields),
      };
      if (m.subresource) entry.subresource = m.subresource;
      return entry;
    });
  if (entries.length > 0) obj.metadata.managedFields = entries;
  else delete obj.metadata.managedFields;
}

export function sameIdentity(m: Manager, name: string, operation: string, subresource?: string): boolean {
  return m.manager === name && m.operation === operation && (m.subresource ?? '') === (subresource ?? '');
}

/**
 * Record an Update operation by `managerName`: every field it added or changed becomes its own (and is taken
 * from other managers); fields that no longer exist are dropped from everyone.
 */
export function recordUpdate(
  before: KubeObject | undefined,
  after: KubeObject,
  managerName: string,
  subresource?: string,
): void {
  const scope = subresource === 'status' ? 'status' : 'main';
  const present = fieldSetOf(after, scope);
  const changed = [...present].filter(
    (p) => before === undefined || !jsonEqual(valueAt(before, parsePath(p)), valueAt(after, parsePath(p))),
  );
  const managers = readManagers(before).map((m) => {
    const inScope = (m.subresource === 'status') === (scope === 'status');
    if (inScope) m.fields = new Set([...m.fields].filter((p) => present.has(p) && !changed.includes(p)));
    return m;
  });
  let own = managers.find((m) => sameIdentity(m, managerName, 'Update', subresource));
  if (!own && changed.length > 0) {
    own = {
      manager: managerName,
      operation: 'Update',
      apiVersion: after.apiVersion,
      time: '',
      fields: new Set(),
    };
    if (subresource) own.subresource = subresource;
    managers.push(own);
  }
  if (own && changed.length > 0) {
    for (const p of changed) own.fields.add(p);
    own.time = timestamp();
    own.apiVersion = after.apiVersion;
  }
  writeManagers(after, managers);
}
