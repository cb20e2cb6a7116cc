/**
 * Parameter sets and what generators do with them (Argo CD `applicationset/generators/`, `utils/`): flattening for
 * fasttemplate and for `selector` (dot style, every leaf as Go's `%v`), label selectors, Go's `path.Match` (git
 * directories), git pathspec globs (git files), and mergo-style deep merges (matrix, merge, generator templates).
 */
import { goString, isMap } from './go-template/go-value.js';

export type Params = Record<string, unknown>;

/** jeremywohl/flatten, dot style: `a.b`, list items `a.0.b`; leaves formatted with `%v` when `stringify`. */
export function flattenParams(params: Params, stringify = true): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const walk = (value: unknown, prefix: string) => {
    if (isMap(value) && (Object.keys(value).length > 0 || prefix === '')) {
      for (const [k, v] of Object.entries(value)) walk(v, prefix === '' ? k : `${prefix}.${k}`);
    } else if (Array.isArray(value) && value.length > 0) {
      for (const [i, v] of value.entries()) walk(v, `${prefix}.${i}`);
    } else out[prefix] = stringify ? goString(value) : value;
  };
  walk(params, '');
  return out;
}

/** Every value of a flat set as Go's `%v` (fasttemplate's matrix and merge inputs). */
export function stringifyParams(params: Params): Record<string, string> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, goString(v)]));
}

export interface Selector {
  matchLabels?: Record<string, string> | undefined;
  matchExpressions?: { key: string; operator: string; values?: string[] | undefined }[] | undefined;
}

/** Kubernetes label selector semantics over a flat string map. An empty selector matches everything. */
export function selectorMatches(selector: Selector, labels: Readonly<Record<string, unknown>>): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    const value = String(labels[e.key]);
    const values = e.values ?? [];
    if (e.operator === 'In' && !(has && values.includes(value))) return false;
    if (e.operator === 'NotIn' && has && values.includes(value)) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

export function selectorIsEmpty(selector: Selector | undefined): boolean {
  return (
    selector === undefined ||
    (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0)
  );
}

function classToRegex(pattern: string, i: number): [string, number] {
  let j = i + 1;
  let out = '[';
  if (pattern[j] === '^' || pattern[j] === '!') {
    out += '^';
    j++;
  }
  while (j < pattern.length && pattern[j] !== ']') {
    const c = pattern[j] as string;
    if (c === '\\') {
      out += `\\${pattern[j + 1] ?? ''}`;
      j += 2;
      continue;
    }
    out += c === '[' ? '\\[' : c;
    j++;
  }
  if (j >= pattern.length) throw new Error(`syntax error in pattern ${pattern}`);
  return [`${out}]`, j + 1];
}

/** A glob as a regular expression; `star` is what `*` matches (Go path.Match: no `/`; git pathspec: anything). */
function globRegex(pattern: string, star: string, one: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i] as string;
    if (c === '*') {
      out += star;
      i++;
    } else if (c === '?') {
      out += one;
      i++;
    } else if (c === '[') {
      const [cls, next] = classToRegex(pattern, i);
      out += cls;
      i = next;
    } else if (c === '\\' && i + 1 < pattern.length) {
      out += (pattern[i + 1] as string).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      i += 2;
    } else {
      out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      i++;
    }
  }
  return new RegExp(`^${out}$`);
}

/** Go's `path.Match`: `*` and `?` do not cross `/` (so `**` is `*`). */
export function goPathMatch(pattern: string, name: string): boolean {
  return globRegex(pattern, '[^/]*', '[^/]').test(name);
}

/**
 * `git ls-files -- <pattern>` pathspec: a pattern without wildcards names a file or a directory prefix; with
 * wildcards, `*` and `?` also match `/`.
 */
export function pathspecMatch(pattern: string, file: string): boolean {
  const p = pattern.replace(/^\.\//, '').replace(/\/+$/, '');
  if (!/[*?[]/.test(p)) return file === p || file.startsWith(`${p}/`) || p === '' || p === '.';
  return globRegex(p, '.*', '.').test(file);
}

/** mergo.Merge(dst, src) without override: empty values of `dst` are filled from `src`, maps recursively. */
export function fillEmpty(dst: unknown, src: unknown): unknown {
  if (isEmptyValue(dst)) return structuredClone(src);
  if (isMap(dst) && isMap(src)) {
    const out: Record<string, unknown> = { ...dst };
    for (const [k, v] of Object.entries(src)) out[k] = fillEmpty(dst[k], v);
    return out;
  }
  return dst;
}

function isEmptyValue(v: unknown): boolean {
  return (
    v === undefined ||
    v === null ||
    v === '' ||
    v === false ||
    v === 0 ||
    (Array.isArray(v) && v.length === 0)
  );
}

/** mergo.Merge(dst, src, WithOverride): maps merged recursively, anything else from `src` wins. */
export function deepMergeOverride(dst: Params, src: Params): Params {
  const out: Params = { ...dst };
  for (const [k, v] of Object.entries(src)) {
    const d = out[k];
    out[k] = isMap(d) && isMap(v) ? deepMergeOverride(d, v) : v;
  }
  return out;
}
