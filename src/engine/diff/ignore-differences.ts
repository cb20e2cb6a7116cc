/**
 * An Application's `spec.ignoreDifferences` (Argo CD docs user-guide/diffing.md): per group/kind (and optionally
 * name and namespace), fields to leave out of the comparison, given as `jsonPointers` (RFC 6901),
 * `jqPathExpressions` and `managedFieldsManagers` (fields owned, in the live object's managedFields, by those
 * field managers). The diff and the drift check drop these fields from both sides; with the sync option
 * `RespectIgnoreDifferences=true` the apply sends the live values of these fields instead of the manifest's
 * (Argo CD's sync `normalizeTargetResources`), so they are never reverted.
 *
 * jq is supported in the form Argo CD's docs use it: a pipeline of paths (`.a.b`, `."x-y"`, `.["k"]`, `[0]`,
 * `[]`, each optionally followed by `?`) and `select(<path> == <literal>)` / `select(<path> != <literal>)`
 * filters, e.g. `.spec.template.spec.initContainers[] | select(.name == "istio-init")`. Any other expression is
 * refused by `parseIgnoreDifferences` with a warning naming it, and left out (never applied half-understood).
 */
import { type Application, type KubeObject, splitApiVersion } from '../../domain/index.js';
import { type FieldPath, setPath, valueAt, withoutPaths } from './field-path.js';

/** One compiled `ignoreDifferences` entry. */
export interface IgnoreDifferencesRule {
  /** API group ('' core, '*' any). */
  group: string;
  /** Kind ('*' any). */
  kind: string;
  name?: string;
  namespace?: string;
  jsonPointers: FieldPath[];
  jqPaths: JqPath[];
  managedFieldsManagers: string[];
}

/** A compiled jq path expression (the supported subset). */
interface JqPath {
  source: string;
  stages: JqStage[];
}

type JqStep = { key: string } | { index: number } | { each: true };
type JqStage =
  | { kind: 'path'; steps: JqStep[] }
  | { kind: 'select'; steps: JqStep[]; op: '==' | '!='; literal: unknown };

export interface ParsedIgnoreDifferences {
  rules: IgnoreDifferencesRule[];
  /** One line per entry or expression that is left out, naming it and why. */
  warnings: string[];
}

/** Compiles `spec.ignoreDifferences` of an Application manifest (an absent or empty list gives no rules). */
export function parseIgnoreDifferences(value: unknown): ParsedIgnoreDifferences {
  const rules: IgnoreDifferencesRule[] = [];
  const warnings: string[] = [];
  if (value === undefined || value === null) return { rules, warnings };
  if (!Array.isArray(value)) {
    return { rules, warnings: ['spec.ignoreDifferences is not a list: ignored'] };
  }
  for (const [i, entry] of value.entries()) {
    const where = `spec.ignoreDifferences[${i}]`;
    if (
      entry === null ||
      typeof entry !== 'object' ||
      typeof (entry as { kind?: unknown }).kind !== 'string'
    ) {
      warnings.push(`${where} has no kind: ignored`);
      continue;
    }
    const e = entry as Record<string, unknown>;
    const strings = (field: string): string[] => {
      const list = e[field];
      if (list === undefined) return [];
      if (!Array.isArray(list) || list.some((s) => typeof s !== 'string')) {
        warnings.push(`${where}.${field} is not a list of strings: ignored`);
        return [];
      }
      return list as string[];
    };
    const jsonPointers: FieldPath[] = [];
    for (const pointer of strings('jsonPointers')) {
      const path = parseJsonPointer(pointer);
      if (path === undefined)
        warnings.push(`${where}: jsonPointer ${pointer} is not a JSON pointer: ignored`);
      else jsonPointers.push(path);
    }
    const jqPaths: JqPath[] = [];
    for (const expression of strings('jqPathExpressions')) {
      const stages = parseJq(expression);
      if (stages === undefined) {
        warnings.push(
          `${where}: jqPathExpression ${expression} is not supported by wavesync (paths, [] and select(.x == "v") are): ignored`,
        );
      } else jqPaths.push({ source: expression, stages });
    }
    for (const field of Object.keys(e)) {
      if (
        ![
          'group',
          'kind',
          'name',
          'namespace',
          'jsonPointers',
          'jqPathExpressions',
          'managedFieldsManagers',
        ].includes(field)
      ) {
        warnings.push(`${where}.${field} is not supported by wavesync: ignored`);
      }
    }
    rules.push({
      group: typeof e.group === 'string' ? e.group : '',
      kind: e.kind as string,
      ...(typeof e.name === 'string' && e.name !== '' ? { name: e.name } : {}),
      ...(typeof e.namespace === 'string' && e.namespace !== '' ? { namespace: e.namespace } : {}),
      jsonPointers,
      jqPaths,
      managedFieldsManagers: strings('managedFieldsManagers'),
    });
  }
  return { rules, warnings };
}

/** The compiled `spec.ignoreDifferences` of an Application (kept in its manifest as read). */
export function ignoreDifferencesOf(app: Pick<Application, 'manifest'>): ParsedIgnoreDifferences {
  const spec = app.manifest.spec as { ignoreDifferences?: unknown } | undefined;
  return parseIgnoreDifferences(spec?.ignoreDifferences);
}

/** RFC 6901: '' is the whole document (refused here), `/a/b~1c/0`. */
function parseJsonPointer(pointer: string): FieldPath | undefined {
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((token) => (/^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : token));
}

/** The rules that apply to `obj` (Argo CD matches group and kind with `*` wildcards, name and namespace exactly). */
function rulesFor(rules: readonly IgnoreDifferencesRule[], obj: KubeObject): IgnoreDifferencesRule[] {
  if (rules.length === 0) return [];
  const { group } = splitApiVersion(obj.apiVersion);
  return rules.filter(
    (r) =>
      (r.group === '*' || r.group === group) &&
      (r.kind === '*' || r.kind === obj.kind) &&
      (r.name === undefined || r.name === obj.metadata.name) &&
      (r.namespace === undefined || r.namespace === (obj.metadata.namespace ?? '')),
  );
}

/**
 * The concrete paths of `obj` the rules ignore. Managed-fields managers are read from `managedFieldsOf` (the
 * live object's `metadata.managedFields`; the target has none) and resolved in `obj`.
 */
function ignoredPathsOf(
  rules: readonly IgnoreDifferencesRule[],
  obj: KubeObject,
  managedFieldsOf: KubeObject | undefined = obj,
): FieldPath[] {
  const paths: FieldPath[] = [];
  for (const rule of rulesFor(rules, obj)) {
    for (const pointer of rule.jsonPointers) if (valueAt(obj, pointer) !== undefined) paths.push(pointer);
    for (const jq of rule.jqPaths) paths.push(...evaluateJq(jq.stages, obj));
    if (rule.managedFieldsManagers.length > 0 && managedFieldsOf !== undefined) {
      paths.push(...managedPathsOf(managedFieldsOf, rule.managedFieldsManagers, obj));
    }
  }
  return paths;
}

/** `obj` without the fields `rules` ignore (a copy). `live` supplies managedFields (default: `obj` itself). */
export function withoutIgnored(
  rules: readonly IgnoreDifferencesRule[],
  obj: KubeObject,
  live: KubeObject | undefined = obj,
): KubeObject {
  if (rules.length === 0) return obj;
  return withoutPaths(obj, ignoredPathsOf(rules, obj, live));
}

/**
 * RespectIgnoreDifferences=true: `target` with each ignored field set to its live value (removed when the live
 * object lacks it), so the apply leaves those fields as they are live. No live object → `target` unchanged.
 */
export function withIgnoredFromLive(
  rules: readonly IgnoreDifferencesRule[],
  target: KubeObject,
  live: KubeObject | undefined,
): KubeObject {
  if (live === undefined || rulesFor(rules, target).length === 0) return target;
  const result = withoutPaths(target, ignoredPathsOf(rules, target, live));
  for (const path of ignoredPathsOf(rules, live, live)) {
    if (path.length === 0) continue;
    const parent = valueAt(result, path.slice(0, -1));
    const value = structuredClone(valueAt(live, path));
    if (Array.isArray(parent) && typeof path.at(-1) === 'number') parent.push(value);
    else setPath(result as Record<string, unknown>, path, value);
  }
  return result;
}

// --- jq subset ---------------------------------------------------------------------------------------------

function parseJq(expression: string): JqStage[] | undefined {
  const stages: JqStage[] = [];
  for (const raw of splitPipes(expression)) {
    const part = raw.trim();
    const select = /^select\(\s*(.+?)\s*(==|!=)\s*(.+?)\s*\)$/.exec(part);
    if (select) {
      const steps = parseJqPath(select[1]!);
      const literal = parseLiteral(select[3]!);
      if (steps === undefined || literal === NOT_A_LITERAL) return undefined;
      stages.push({ kind: 'select', steps, op: select[2] as '==' | '!=', literal });
    } else {
      const steps = parseJqPath(part);
      if (steps === undefined) return undefined;
      stages.push({ kind: 'path', steps });
    }
  }
  return stages.length > 0 && stages[0]!.kind === 'path' ? stages : undefined;
}

/** Splits on `|` outside string literals. */
function splitPipes(expression: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i]!;
    if (c === '"' && expression[i - 1] !== '\\') quoted = !quoted;
    if (c === '|' && !quoted) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

const NOT_A_LITERAL = Symbol('not a literal');

function parseLiteral(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? NOT_A_LITERAL : value;
  } catch {
    return NOT_A_LITERAL;
  }
}

const JQ_TOKEN =
  /^(?:\.([A-Za-z_][A-Za-z0-9_]*)|\.?"((?:[^"\\]|\\.)*)"|\.?\[\s*"((?:[^"\\]|\\.)*)"\s*\]|\.?\[\s*(\d+)\s*\]|\.?\[\s*\])\??/;

function parseJqPath(text: string): JqStep[] | undefined {
  const source = text.trim();
  if (source === '.') return [];
  if (!source.startsWith('.')) return undefined;
  const steps: JqStep[] = [];
  let rest = source;
  while (rest !== '') {
    const m = JQ_TOKEN.exec(rest);
    if (!m || m[0] === '') return undefined;
    if (m[1] !== undefined) steps.push({ key: m[1] });
    else if (m[2] !== undefined) steps.push({ key: JSON.parse(`"${m[2]}"`) as string });
    else if (m[3] !== undefined) steps.push({ key: JSON.parse(`"${m[3]}"`) as string });
    else if (m[4] !== undefined) steps.push({ index: Number(m[4]) });
    else steps.push({ each: true });
    rest = rest.slice(m[0].length);
  }
  return steps;
}

interface Located {
  path: FieldPath;
  value: unknown;
}

function walk(from: Located[], steps: readonly JqStep[]): Located[] {
  let current = from;
  for (const step of steps) {
    const next: Located[] = [];
    for (const { path, value } of current) {
      if ('key' in step) {
        if (value !== null && typeof value === 'object' && !Array.isArray(value) && step.key in value) {
          next.push({ path: [...path, step.key], value: (value as Record<string, unknown>)[step.key] });
        }
      } else if ('index' in step) {
        if (Array.isArray(value) && step.index < value.length) {
          next.push({ path: [...path, step.index], value: value[step.index] });
        }
      } else if (Array.isArray(value)) {
        for (const [i, item] of value.entries()) next.push({ path: [...path, i], value: item });
      } else if (value !== null && typeof value === 'object') {
        for (const [k, item] of Object.entries(value)) next.push({ path: [...path, k], value: item });
      }
    }
    current = next;
  }
  return current;
}

function evaluateJq(stages: readonly JqStage[], obj: KubeObject): FieldPath[] {
  let current: Located[] = [{ path: [], value: obj }];
  for (const stage of stages) {
    if (stage.kind === 'path') current = walk(current, stage.steps);
    else {
      current = current.filter((located) => {
        const [found] = walk([{ path: [], value: located.value }], stage.steps);
        const equal = found !== undefined && found.value === stage.literal;
        return stage.op === '==' ? equal : !equal;
      });
    }
  }
  return current.map((l) => l.path).filter((p) => p.length > 0);
}

// --- managedFields (fieldsV1) ------------------------------------------------------------------------------

interface ManagedFieldsEntry {
  manager?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
}

/**
 * The leaf paths of `obj` that `managers` own according to `source.metadata.managedFields` (fieldsV1: `f:<key>`
 * object fields, `k:<json>` list items by key fields, `v:<json>` set items by value, `i:<n>` by index).
 */
function managedPathsOf(source: KubeObject, managers: readonly string[], obj: KubeObject): FieldPath[] {
  const entries = (source.metadata.managedFields as ManagedFieldsEntry[] | undefined) ?? [];
  const paths: FieldPath[] = [];
  for (const entry of entries) {
    if (entry.manager === undefined || !managers.includes(entry.manager) || entry.fieldsV1 === undefined)
      continue;
    collectManaged(entry.fieldsV1, obj, [], paths);
  }
  return paths;
}

function collectManaged(
  fields: Record<string, unknown>,
  value: unknown,
  path: FieldPath,
  out: FieldPath[],
): void {
  for (const [key, sub] of Object.entries(fields)) {
    if (key === '.') continue;
    const children = (sub ?? {}) as Record<string, unknown>;
    const located = locate(key, value);
    if (located === undefined) continue;
    const childPath = [...path, located.segment];
    const hasChildren = Object.keys(children).some((k) => k !== '.');
    if (hasChildren) collectManaged(children, located.value, childPath, out);
    else out.push(childPath);
  }
}

function locate(key: string, value: unknown): { segment: string | number; value: unknown } | undefined {
  const kind = key.slice(0, 2);
  const rest = key.slice(2);
  if (kind === 'f:') {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !(rest in value))
      return undefined;
    return { segment: rest, value: (value as Record<string, unknown>)[rest] };
  }
  if (!Array.isArray(value)) return undefined;
  if (kind === 'i:') {
    const index = Number(rest);
    return index < value.length ? { segment: index, value: value[index] } : undefined;
  }
  let wanted: unknown;
  try {
    wanted = JSON.parse(rest);
  } catch {
    return undefined;
  }
  const index = value.findIndex((item) =>
    kind === 'k:'
      ? item !== null &&
        typeof item === 'object' &&
        Object.entries(wanted as Record<string, unknown>).every(
          ([k, v]) => JSON.stringify((item as Record<string, unknown>)[k]) === JSON.stringify(v),
        )
      : JSON.stringify(item) === JSON.stringify(wanted),
  );
  return index < 0 ? undefined : { segment: index, value: value[index] };
}
