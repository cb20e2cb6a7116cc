/**
 * Server-side apply (`application/apply-patch+yaml`): merge the applied configuration into the live object,
 * detect conflicts with other field managers (409 unless `force`), remove fields this manager applied before
 * but no longer applies (when nobody else owns them), and record the manager's Apply entry in managedFields.
 * Semantics from the Kubernetes docs "Server-Side Apply" (conflicts, merge strategy, field removal).
 */

import { StatusError } from '../api/status-error.js';
import { listSemantics, sameKey } from '../patch/list-semantics.js';
import {
  clone,
  isJsonObject,
  type JsonObject,
  jsonEqual,
  type KubeObject,
  timestamp,
} from '../store/kube-object.js';
import { describePath, type FieldSet, fieldSetOf, parsePath, removeAt, valueAt } from './field-path.js';
import { type Manager, readManagers, sameIdentity, writeManagers } from './managed-fields.js';

export interface ApplyRequest {
  live: KubeObject | undefined;
  config: KubeObject;
  manager: string;
  force: boolean;
  subresource?: string;
}

/** Returns the merged object with updated managedFields; throws a 409 Conflict StatusError on conflicts. */
export function serverSideApply(request: ApplyRequest): KubeObject {
  const { live, config, manager, force, subresource } = request;
  const scope = subresource === 'status' ? 'status' : 'main';
  const applied = fieldSetOf(config, scope);
  const managers = readManagers(live);
  const conflicts = findConflicts(live, config, applied, managers, manager);
  if (conflicts.length > 0 && !force) throw conflictError(conflicts);
  const own = managers.find((m) => sameIdentity(m, manager, 'Apply', subresource));
  const previously = own?.fields ?? new Set<string>();
  for (const m of managers) {
    if (m !== own && m.manager !== manager)
      m.fields = new Set(
        [...m.fields].filter((p) => !conflicts.some((c) => c.path === p && c.manager === m)),
      );
  }
  const base: KubeObject = live
    ? clone(live)
    : { apiVersion: config.apiVersion, kind: config.kind, metadata: {} };
  const merged = mergeInto(base, withoutIdentity(config), []) as KubeObject;
  removeDropped(
    merged,
    previously,
    applied,
    managers.filter((m) => m !== own),
  );
  const entry: Manager = own ?? {
    manager,
    operation: 'Apply',
    apiVersion: config.apiVersion,
    time: '',
    fields: new Set(),
  };
  if (subresource) entry.subresource = subresource;
  entry.fields = applied;
  entry.time = timestamp();
  entry.apiVersion = config.apiVersion;
  writeManagers(merged, own ? managers : [...managers, entry]);
  return merged;
}

interface Conflict {
  manager: Manager;
  path: string;
}

function findConflicts(
  live: KubeObject | undefined,
  config: KubeObject,
  applied: FieldSet,
  managers: Manager[],
  name: string,
): Conflict[] {
  if (!live) return [];
  const conflicts: Conflict[] = [];
  for (const path of applied) {
    const elems = parsePath(path);
    if (elems[elems.length - 1]?.startsWith('k:')) continue;
    if (jsonEqual(valueAt(live, elems), valueAt(config, elems))) continue;
    for (const m of managers)
      if (m.manager !== name && m.fields.has(path)) conflicts.push({ manager: m, path });
  }
  return conflicts;
}

function conflictError(conflicts: Conflict[]): StatusError {
  const byManager = new Map<Manager, string[]>();
  for (const c of conflicts)
    byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), describePath(c.path)]);
  const parts = [...byManager].map(([m, paths]) =>
    paths.length === 1
      ? `conflict with "${m.manager}" using ${m.apiVersion}: ${paths[0]}`
      : `conflicts with "${m.manager}" using ${m.apiVersion}:\n${paths.map((p) => `- ${p}`).join('\n')}`,
  );
  const n = conflicts.length;
  const message = `Apply failed with ${n} conflict${n === 1 ? '' : 's'}: ${parts.join('\n')}`;
  const causes = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with "${c.manager.manager}" using ${c.manager.apiVersion}`,
    field: describePath(c.path),
  }));
  return new StatusError(409, 'Conflict', message, { causes });
}

/** The applied config without identity metadata (name/namespace/uid/resourceVersion are not merged fields). */
function withoutIdentity(config: KubeObject): JsonObject {
  const copy = clone(config) as JsonObject;
  const metadata = isJsonObject(copy.metadata) ? copy.metadata : {};
  const kept: JsonObject = {};
  for (const key of ['labels', 'annotations', 'finalizers', 'ownerReferences'])
    if (key in metadata) kept[key] = metadata[key];
  copy.metadata = kept;
  return copy;
}

function mergeInto(live: unknown, config: unknown, names: string[]): unknown {
  if (isJsonObject(config) && isJsonObject(live)) {
    const out = clone(live);
    for (const [key, value] of Object.entries(config))
      out[key] = mergeInto(live[key], value, [...names, key]);
    return out;
  }
  if (Array.isArray(config) && Array.isArray(live)) {
    const semantics = listSemantics(names, 'apply');
    if (semantics.type === 'set')
      return [...config, ...live.filter((v) => !config.some((c) => jsonEqual(c, v)))];
    if (semantics.type === 'map') {
      const merged = config.map((item) => {
        const existing = live.find((l) => sameKey(l, item, semantics.keys, semantics.defaults));
        return existing === undefined ? clone(item) : mergeInto(existing, item, names);
      });
      const kept = live.filter((l) => !config.some((c) => sameKey(c, l, semantics.keys, semantics.defaults)));
      return [...merged, ...kept];
    }
  }
  return clone(config);
}

/**
 * Fields applied last time but not now are removed unless another manager still owns them (or below them). A
 * list-map item goes as a whole: items are removed before their fields (shallowest path first), and an item's key
 * fields (`name` of a container) are never removed on their own — they are its identity, so an item another
 * manager keeps alive keeps its key (structured-merge-diff: the same manager renaming a container replaces it).
 */
function removeDropped(obj: KubeObject, previously: FieldSet, applied: FieldSet, others: Manager[]): void {
  const dropped = [...previously].filter((p) => !applied.has(p) && !isAppliedBelow(p, applied));
  for (const path of dropped.sort((a, b) => a.length - b.length)) {
    const elems = parsePath(path);
    if (isKeyFieldOfItem(elems)) continue;
    const prefix = path.slice(0, -1);
    const ownedElsewhere = others.some((m) =>
      [...m.fields].some((f) => f === path || f.startsWith(`${prefix},`)),
    );
    if (!ownedElsewhere) removeAt(obj as JsonObject, elems);
  }
}

/**
 * True when `path` names a field (`f:`) that this apply still sets below: an empty map applied before
 * (`annotations: {}`, a leaf then) that now holds keys is still applied, not dropped (structured-merge-diff
 * `EnsureNamedFieldsAreMembers`), so the keys applied now are not removed with it.
 */
function isAppliedBelow(path: string, applied: FieldSet): boolean {
  if (!parsePath(path).at(-1)?.startsWith('f:')) return false;
  const prefix = `${path.slice(0, -1)},`;
  for (const field of applied) if (field.startsWith(prefix)) return true;
  return false;
}

/** True for `…, k:{"name":"web"}, f:name`: a key field of a list-map item. */
function isKeyFieldOfItem(elems: readonly string[]): boolean {
  const last = elems[elems.length - 1];
  const parent = elems[elems.length - 2];
  if (!last?.startsWith('f:') || !parent?.startsWith('k:')) return false;
  return Object.hasOwn(JSON.parse(parent.slice(2)) as object, last.slice(2));
}
