/**
 * The diff of one resource: its live object against the object a sync would leave (the server-side dry run of
 * the apply), both normalised (`normalizeForDiff`), stripped of ignored fields (`ignoreDifferences`) and with
 * Secret values masked (`maskSecretPair`) before anything is compared or rendered — nothing downstream of this
 * file ever sees a Secret value. Gives the action, the changed fields (paths with short before/after values)
 * and a unified YAML diff (`--- live` / `+++ desired`, keys sorted as `argocd app diff` shows them).
 */
import { stringify } from 'yaml';
import type { KubeObject } from '../../domain/index.js';
import { type FieldPath, formatFieldPath } from './field-path.js';
import { type IgnoreDifferencesRule, withoutIgnored } from './ignore-differences.js';
import { maskSecretPair } from './mask-secrets.js';
import { normalizeForDiff } from './normalize-object.js';
import { unifiedDiff } from './unified-diff.js';

/**
 * What a sync does to a resource: `create` (no live object), `change`, `unchanged`, `prune` (live, no longer in
 * the manifests, deleted by this sync), `prune-skipped` (same, but the sync does not prune).
 */
export type DiffAction = 'create' | 'change' | 'unchanged' | 'prune' | 'prune-skipped';

/** One changed field: its path and short renderings of both values (absent = the field is missing). */
interface FieldChange {
  path: string;
  /** Short rendering of the live value (`'(absent)'` when missing); for Secret data, the mask only. */
  live: string;
  /** Short rendering of the value after the sync. */
  desired: string;
}

export interface ResourceDiff {
  group: string;
  kind: string;
  /** '' when cluster-scoped. */
  namespace: string;
  name: string;
  action: DiffAction;
  /** Changed fields, in document order (change only). */
  fields: FieldChange[];
  /** Secret keys added, removed or changed (values are never shown). */
  secretKeysChanged: string[];
  /** Unified YAML diff (masked); '' when unchanged. */
  diff: string;
  /** Why the diff is approximate, e.g. the dry run failed and the manifest itself was compared. */
  note?: string;
}

export interface DiffResourceInput {
  group: string;
  kind: string;
  namespace: string;
  name: string;
  /** The live object, undefined when it does not exist. */
  live: KubeObject | undefined;
  /** What the sync leaves: the dry-run answer (or the manifest); undefined for a prune. */
  desired: KubeObject | undefined;
  /** For a prune: whether the sync deletes it. */
  prune?: boolean;
  rules?: readonly IgnoreDifferencesRule[];
  note?: string;
}

/** Compares one resource (see the file comment). Pure; never returns an unmasked Secret value. */
export function diffResource(input: DiffResourceInput): ResourceDiff {
  const rules = input.rules ?? [];
  const prepare = (obj: KubeObject | undefined) =>
    obj === undefined ? undefined : normalizeForDiff(withoutIgnored(rules, obj, input.live));
  const masked = maskSecretPair(prepare(input.live), prepare(input.desired));
  const action: DiffAction =
    masked.target === undefined
      ? input.prune
        ? 'prune'
        : 'prune-skipped'
      : masked.live === undefined
        ? 'create'
        : 'change';
  const base = { group: input.group, kind: input.kind, namespace: input.namespace, name: input.name };
  const note = input.note === undefined ? {} : { note: input.note };
  // Most resources of a sync are unchanged: a structural comparison spares them the YAML rendering.
  if (action === 'change' && deepEqual(masked.live, masked.target)) {
    return { ...base, action: 'unchanged', fields: [], secretKeysChanged: [], diff: '', ...note };
  }
  const before = masked.live === undefined ? '' : toYaml(masked.live);
  const after = masked.target === undefined ? '' : toYaml(masked.target);
  const label = `${input.kind}/${input.namespace ? `${input.namespace}/` : ''}${input.name}`;
  const diff = unifiedDiff(before, after, { old: `live ${label}`, new: `desired ${label}` });
  const fields: FieldChange[] = [];
  if (action === 'change') collectChanges(masked.live, masked.target, [], fields);
  return {
    ...base,
    action: action === 'change' && diff === '' ? 'unchanged' : action,
    fields,
    secretKeysChanged: masked.changedKeys,
    diff,
    ...note,
  };
}

/** Structural equality of JSON values (map key order ignored). */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  if (!isMap(a) || !isMap(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => k in b && deepEqual(a[k], b[k]));
}

/** YAML with keys sorted, so two renderings differ only where the objects do. */
function toYaml(obj: KubeObject): string {
  return stringify(obj, { sortMapEntries: true, lineWidth: 0 });
}

const ABSENT = '(absent)';
const MAX_VALUE_LENGTH = 60;

function render(value: unknown): string {
  if (value === undefined) return ABSENT;
  const text = value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Leaf-level differences: maps key by key, lists item by item (extra items whole). */
function collectChanges(live: unknown, desired: unknown, path: FieldPath, out: FieldChange[]): void {
  if (isMap(live) && isMap(desired)) {
    const keys = [...new Set([...Object.keys(desired), ...Object.keys(live)])].sort();
    for (const key of keys) collectChanges(live[key], desired[key], [...path, key], out);
    return;
  }
  if (Array.isArray(live) && Array.isArray(desired)) {
    for (let i = 0; i < Math.max(live.length, desired.length); i++) {
      collectChanges(live[i], desired[i], [...path, i], out);
    }
    return;
  }
  if (JSON.stringify(live) === JSON.stringify(desired)) return;
  out.push({ path: formatFieldPath(path), live: render(live), desired: render(desired) });
}

/** True when a diff concerns a Secret (its values are masked). */
export function isSecretDiff(diff: Pick<ResourceDiff, 'group' | 'kind'>): boolean {
  return diff.group === '' && diff.kind === 'Secret';
}
