/**
 * The functions a `goTemplate: true` ApplicationSet can call (Argo CD `applicationset/utils/utils.go` init and
 * `template_functions.go`): Go's text/template built-ins, Sprig's generic functions that ApplicationSets use
 * (strings, lists, dicts, defaults, math, encoding, regexp, paths) — `env`, `expandenv` and `getHostByName` are
 * left out as in Argo CD, and so are Sprig's date and random functions (output would change between two runs) —
 * plus Argo CD's `normalize`, `slugify`, `toYaml`, `fromYaml`, `fromYamlArray`. A Sprig function not listed here is
 * an error naming it (`function "x" not defined`), never a silent empty string. Argo CD's names are in
 * argocd-names.ts, Go's JSON and YAML encodings in go-encoding.ts.
 */
import { createHash } from 'node:crypto';
import path from 'node:path/posix';
import { parse as parseYaml } from 'yaml';
import { normalizeName, slugifyName } from './argocd-names.js';
import { goJson, goYaml, sortKeys } from './go-encoding.js';
import { goString, isMap, isTrue, NO_VALUE, toNumber, toPlain } from './go-value.js';

export class GoTemplateError extends Error {}

export type GoTemplateFunction = (...args: unknown[]) => unknown;

const str = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'string' ? v : goString(v);
const int = (v: unknown): bigint => {
  if (typeof v === 'bigint') return v;
  const n = Math.trunc(toNumber(v));
  return BigInt(Number.isFinite(n) ? n : 0);
};
const list = (v: unknown): unknown[] => {
  if (Array.isArray(v)) return v;
  if (v === null || v === undefined) return [];
  throw new GoTemplateError(`cannot use ${goString(v)} as a list`);
};
const dict = (v: unknown): Record<string, unknown> => {
  if (isMap(v)) return v;
  throw new GoTemplateError(`cannot use ${goString(v)} as a dict`);
};
const numeric = (v: unknown) => (typeof v === 'bigint' ? v : typeof v === 'number' ? v : toNumber(v));

function compare(a: unknown, b: unknown, op: string): number {
  const na = typeof a === 'bigint' || typeof a === 'number';
  const nb = typeof b === 'bigint' || typeof b === 'number';
  if (na && nb) return toNumber(a) - toNumber(b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  throw new GoTemplateError(`error calling ${op}: incompatible types for comparison`);
}

function equal(a: unknown, b: unknown): boolean {
  const na = typeof a === 'bigint' || typeof a === 'number';
  const nb = typeof b === 'bigint' || typeof b === 'number';
  if (na && nb) return toNumber(a) === toNumber(b);
  if (a === null || b === null) return a === b;
  if (typeof a !== typeof b) throw new GoTemplateError('error calling eq: incompatible types for comparison');
  return a === b;
}

/** Go's printf for the verbs templates use: %s %v %d %q %t %f %x %%. */
function printf(format: unknown, ...args: unknown[]): string {
  let i = 0;
  return str(format).replace(/%([-+# 0]*\d*(?:\.\d+)?)([svdqtfxX%])/g, (_m, flags: string, verb: string) => {
    if (verb === '%') return '%';
    if (i >= args.length) return `%!${verb}(MISSING)`;
    const arg = args[i++];
    let out: string;
    switch (verb) {
      case 'd':
        out = int(arg).toString();
        break;
      case 'q':
        out = JSON.stringify(str(arg));
        break;
      case 't':
        out = String(isTrue(arg));
        break;
      case 'f': {
        const precision = /\.(\d+)/.exec(flags)?.[1];
        out = toNumber(arg).toFixed(precision === undefined ? 6 : Number(precision));
        break;
      }
      case 'x':
      case 'X':
        out = typeof arg === 'string' ? Buffer.from(arg).toString('hex') : int(arg).toString(16);
        if (verb === 'X') out = out.toUpperCase();
        break;
      default:
        out = goString(arg);
    }
    const width = /(\d+)$/.exec(flags.replace(/\.\d+$/, ''))?.[1];
    if (width !== undefined)
      out = flags.includes('-') ? out.padEnd(Number(width)) : out.padStart(Number(width));
    return out;
  });
}

function dig(...args: unknown[]): unknown {
  const source = dict(args[args.length - 1]);
  const fallback = args[args.length - 2];
  let current: unknown = source;
  for (const key of args.slice(0, -2)) {
    if (!isMap(current) || !Object.hasOwn(current, str(key))) return fallback;
    current = current[str(key)];
  }
  return current;
}

function indexOf(collection: unknown, ...keys: unknown[]): unknown {
  let current = collection;
  for (const key of keys) {
    if (Array.isArray(current)) {
      const i = toNumber(key);
      if (i < 0 || i >= current.length)
        throw new GoTemplateError(`error calling index: index out of range: ${i}`);
      current = current[i];
    } else if (isMap(current)) {
      current = Object.hasOwn(current, str(key)) ? current[str(key)] : NO_VALUE;
    } else if (current === null || current === undefined || current === NO_VALUE) {
      throw new GoTemplateError('error calling index: index of untyped nil');
    } else throw new GoTemplateError(`error calling index: can't index item of type ${typeof current}`);
  }
  return current === NO_VALUE ? null : current;
}

function fromYaml(text: unknown): unknown {
  const parsed: unknown = parseYaml(str(text));
  if (!isMap(parsed)) throw new GoTemplateError(`error calling fromYaml: not a YAML mapping: ${str(text)}`);
  return parsed;
}

function fromYamlArray(text: unknown): unknown {
  const parsed: unknown = parseYaml(str(text));
  if (!Array.isArray(parsed))
    throw new GoTemplateError(`error calling fromYamlArray: not a YAML list: ${str(text)}`);
  return parsed;
}

function mergeInto(target: Record<string, unknown>, source: Record<string, unknown>, override: boolean) {
  for (const [k, v] of Object.entries(source)) {
    const existing = target[k];
    if (isMap(existing) && isMap(v)) mergeInto(existing, v, override);
    else if (override || !isTrue(existing)) target[k] = v;
  }
  return target;
}

const regex = (pattern: unknown) => new RegExp(str(pattern).replace(/\(\?P</g, '(?<'), 'g');

export const TEMPLATE_FUNCTIONS: Record<string, GoTemplateFunction> = {
  // text/template built-ins (and, or are evaluated lazily by the executor)
  and: () => undefined,
  or: () => undefined,
  not: (v) => !isTrue(v),
  len: (v) => {
    if (typeof v === 'string' || Array.isArray(v)) return BigInt(v.length);
    if (isMap(v)) return BigInt(Object.keys(v).length);
    throw new GoTemplateError(`error calling len: len of type ${typeof v}`);
  },
  index: indexOf,
  print: (...args) =>
    args
      .map((a, i) =>
        i > 0 && typeof a !== 'string' && typeof args[i - 1] !== 'string' ? ` ${goString(a)}` : goString(a),
      )
      .join(''),
  println: (...args) => `${args.map(goString).join(' ')}\n`,
  printf,
  eq: (a, ...rest) => rest.some((b) => equal(a, b)),
  ne: (a, b) => !equal(a, b),
  lt: (a, b) => compare(a, b, 'lt') < 0,
  le: (a, b) => compare(a, b, 'le') <= 0,
  gt: (a, b) => compare(a, b, 'gt') > 0,
  ge: (a, b) => compare(a, b, 'ge') >= 0,
  urlquery: (...args) => encodeURIComponent(args.map(str).join('')),
  slice: (v, ...idx) => {
    const [from, to] = idx.map(toNumber);
    if (typeof v === 'string' || Array.isArray(v)) return v.slice(from ?? 0, to);
    throw new GoTemplateError('error calling slice: cannot slice');
  },
  // Argo CD
  normalize: (v) => normalizeName(str(v)),
  slugify: (...args) => {
    const name = str(args[args.length - 1]);
    const maxLen = args.length > 1 ? toNumber(args[0]) : 50;
    const smart = args.length > 2 ? isTrue(args[1]) : true;
    return slugifyName(maxLen, smart, name);
  },
  toYaml: (v) => goYaml(v),
  fromYaml,
  fromYamlArray,
  // Sprig: defaults and flow
  default: (fallback, given) => (isTrue(given) ? given : fallback),
  empty: (v) => !isTrue(v),
  coalesce: (...args) => args.find(isTrue) ?? null,
  ternary: (yes, no, condition) => (isTrue(condition) ? yes : no),
  fail: (message) => {
    throw new GoTemplateError(`error calling fail: ${str(message)}`);
  },
  required: (message, v) => {
    if (v === null || v === undefined || v === '')
      throw new GoTemplateError(`error calling required: ${str(message)}`);
    return v;
  },
  // Sprig: strings
  toString: (v: unknown) => str(v),
  upper: (v) => str(v).toUpperCase(),
  lower: (v) => str(v).toLowerCase(),
  title: (v) => str(v).replace(/\b\w/g, (c) => c.toUpperCase()),
  trim: (v) => str(v).trim(),
  trimAll: (cut, v) =>
    str(v).replace(new RegExp(`^[${escapeClass(str(cut))}]+|[${escapeClass(str(cut))}]+$`, 'g'), ''),
  trimPrefix: (prefix, v) => (str(v).startsWith(str(prefix)) ? str(v).slice(str(prefix).length) : str(v)),
  trimSuffix: (suffix, v) =>
    str(suffix) !== '' && str(v).endsWith(str(suffix)) ? str(v).slice(0, -str(suffix).length) : str(v),
  replace: (from, to, v) => str(v).split(str(from)).join(str(to)),
  trunc: (n, v) => {
    const c = toNumber(n);
    const s = str(v);
    return c >= 0 ? s.slice(0, c) : s.slice(Math.max(0, s.length + c));
  },
  substr: (start, end, v) => str(v).slice(toNumber(start), toNumber(end) < 0 ? undefined : toNumber(end)),
  contains: (sub, v) => str(v).includes(str(sub)),
  hasPrefix: (prefix, v) => str(v).startsWith(str(prefix)),
  hasSuffix: (suffix, v) => str(v).endsWith(str(suffix)),
  quote: (...args) =>
    args
      .filter((a) => a !== null)
      .map((a) => JSON.stringify(str(a)))
      .join(' '),
  squote: (...args) =>
    args
      .filter((a) => a !== null)
      .map((a) => `'${str(a)}'`)
      .join(' '),
  cat: (...args) =>
    args
      .filter((a) => a !== null && a !== undefined)
      .map(str)
      .join(' '),
  repeat: (n, v) => str(v).repeat(Math.max(0, toNumber(n))),
  nospace: (v) => str(v).replace(/\s/g, ''),
  indent: (n, v) => {
    const pad = ' '.repeat(toNumber(n));
    return pad + str(v).replace(/\n/g, `\n${pad}`);
  },
  nindent: (n, v) => {
    const pad = ' '.repeat(toNumber(n));
    return `\n${pad}${str(v).replace(/\n/g, `\n${pad}`)}`;
  },
  kebabcase: (v) =>
    str(v)
      .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
      .replace(/[\s_]+/g, '-')
      .toLowerCase(),
  snakecase: (v) =>
    str(v)
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/[\s-]+/g, '_')
      .toLowerCase(),
  splitList: (sep, v) => str(v).split(str(sep)),
  split: (sep, v) =>
    Object.fromEntries(
      str(v)
        .split(str(sep))
        .map((part, i) => [`_${i}`, part]),
    ),
  join: (sep, v) => (Array.isArray(v) ? v.map(str).join(str(sep)) : str(v)),
  sortAlpha: (v) => list(v).map(str).sort(),
  // Sprig: regular expressions (Go RE2 syntax; named groups (?P<x>…) accepted)
  regexMatch: (pattern, v) => new RegExp(str(pattern).replace(/\(\?P</g, '(?<')).test(str(v)),
  regexFind: (pattern, v) => new RegExp(str(pattern).replace(/\(\?P</g, '(?<')).exec(str(v))?.[0] ?? '',
  regexFindAll: (pattern, v, n) => {
    const all = str(v).match(regex(pattern)) ?? [];
    return toNumber(n) < 0 ? all : all.slice(0, toNumber(n));
  },
  regexReplaceAll: (pattern, v, replacement) =>
    str(v).replace(
      regex(pattern),
      str(replacement).replace(/\$\{?(\w+)\}?/g, (_m, g: string) => (/^\d+$/.test(g) ? `$${g}` : `$<${g}>`)),
    ),
  regexReplaceAllLiteral: (pattern, v, replacement) => str(v).replace(regex(pattern), () => str(replacement)),
  regexSplit: (pattern, v, n) => {
    const parts = str(v).split(new RegExp(str(pattern)));
    return toNumber(n) < 0 ? parts : parts.slice(0, toNumber(n));
  },
  // Sprig: lists
  list: (...args) => args,
  first: (v) => list(v)[0] ?? null,
  last: (v) => list(v)[list(v).length - 1] ?? null,
  rest: (v) => list(v).slice(1),
  initial: (v) => list(v).slice(0, -1),
  append: (v, item) => [...list(v), item],
  prepend: (v, item) => [item, ...list(v)],
  concat: (...args) => args.flatMap(list),
  reverse: (v) => [...list(v)].reverse(),
  uniq: (v) => list(v).filter((x, i, all) => all.findIndex((y) => goString(y) === goString(x)) === i),
  has: (item, v) => list(v).some((x) => goString(x) === goString(item)),
  without: (v, ...items) => list(v).filter((x) => !items.some((i) => goString(i) === goString(x))),
  compact: (v) => list(v).filter(isTrue),
  until: (n) => Array.from({ length: Math.max(0, toNumber(n)) }, (_, i) => BigInt(i)),
  // Sprig: dicts
  dict: (...args) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < args.length; i += 2) out[str(args[i])] = i + 1 < args.length ? args[i + 1] : '';
    return out;
  },
  get: (d, key) => (Object.hasOwn(dict(d), str(key)) ? dict(d)[str(key)] : ''),
  set: (d, key, v) => {
    dict(d)[str(key)] = v;
    return d;
  },
  unset: (d, key) => {
    delete dict(d)[str(key)];
    return d;
  },
  hasKey: (d, key) => Object.hasOwn(dict(d), str(key)),
  keys: (...ds) => ds.flatMap((d) => Object.keys(dict(d))),
  values: (d) => Object.values(dict(d)),
  pick: (d, ...keys) =>
    Object.fromEntries(
      keys
        .map(str)
        .filter((k) => Object.hasOwn(dict(d), k))
        .map((k) => [k, dict(d)[k]]),
    ),
  omit: (d, ...keys) =>
    Object.fromEntries(Object.entries(dict(d)).filter(([k]) => !keys.map(str).includes(k))),
  pluck: (key, ...ds) =>
    ds
      .map(dict)
      .filter((d) => Object.hasOwn(d, str(key)))
      .map((d) => d[str(key)]),
  dig,
  merge: (dst, ...srcs) =>
    srcs.reduce((acc: Record<string, unknown>, s) => mergeInto(acc, dict(s), false), dict(dst)),
  mergeOverwrite: (dst, ...srcs) =>
    srcs.reduce((acc: Record<string, unknown>, s) => mergeInto(acc, dict(s), true), dict(dst)),
  deepCopy: (v) => structuredClone(v),
  // Sprig: math and conversions (Go ints)
  add: (...args) => args.reduce((a: bigint, b) => a + int(b), 0n),
  add1: (v) => int(v) + 1n,
  sub: (a, b) => int(a) - int(b),
  mul: (...args) => args.reduce((a: bigint, b) => a * int(b), 1n),
  div: (a, b) => {
    if (int(b) === 0n) throw new GoTemplateError('error calling div: runtime error: integer divide by zero');
    return int(a) / int(b);
  },
  mod: (a, b) => {
    if (int(b) === 0n) throw new GoTemplateError('error calling mod: runtime error: integer divide by zero');
    return int(a) % int(b);
  },
  max: (...args) => args.map(int).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))[0] ?? 0n,
  min: (...args) => args.map(int).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[0] ?? 0n,
  int: (v) => int(v),
  int64: (v) => int(v),
  float64: (v) => toNumber(numeric(v)),
  atoi: (v) => (/^[-+]?\d+$/.test(str(v).trim()) ? BigInt(str(v).trim()) : 0n),
  toStrings: (v) => list(v).map(str),
  // Sprig: encoding, hashes, paths
  toJson: (v) => goJson(v),
  toPrettyJson: (v) => goJson(v, 2),
  toRawJson: (v) => JSON.stringify(sortKeys(toPlain(v))),
  fromJson: (v) => {
    try {
      return JSON.parse(str(v));
    } catch {
      return {};
    }
  },
  b64enc: (v) => Buffer.from(str(v)).toString('base64'),
  b64dec: (v) => Buffer.from(str(v), 'base64').toString('utf8'),
  sha256sum: (v) => createHash('sha256').update(str(v)).digest('hex'),
  sha1sum: (v) => createHash('sha1').update(str(v)).digest('hex'),
  base: (v) => path.basename(str(v)) || '.',
  dir: (v) => path.dirname(str(v)),
  ext: (v) => path.extname(str(v)),
  clean: (v) => path.normalize(str(v)).replace(/\/$/, '') || '.',
  kindOf: (v) =>
    v === null
      ? 'invalid'
      : typeof v === 'bigint'
        ? 'int'
        : typeof v === 'number'
          ? 'float64'
          : Array.isArray(v)
            ? 'slice'
            : isMap(v)
              ? 'map'
              : typeof v === 'boolean'
                ? 'bool'
                : 'string',
};

function escapeClass(chars: string): string {
  return chars.replace(/[\\\]^-]/g, '\\$&');
}
