/**
 * How Go's text/template prints and compares the values an ApplicationSet's parameters hold (JSON types: numbers
 * are Go float64, template integer literals and integer results of functions are Go ints, kept here as bigint).
 * `goString` is fmt's `%v`: float64 in shortest form with an exponent from 1e21 or below 1e-4, and from the 7th
 * digit of an integer power (`1000000` → `1e+06`), maps as `map[k:v]` with sorted keys, slices as `[a b]`, nil as
 * `<nil>`.
 */

/** A template's `<no value>`: a missing map key under the default `missingkey` option. */
export const NO_VALUE: unique symbol = Symbol('no value');

export type GoValue = unknown;

/** fmt `%v` of a float64 (strconv 'g', shortest: exponent form when the exponent is < -4 or >= 6). */
export function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return '0';
  const [mantissa = '', expText = '0'] = n.toExponential().split('e');
  const exp = Number(expText);
  if (exp >= -4 && exp < 6) return String(n);
  const e = Math.abs(exp) < 10 ? `0${Math.abs(exp)}` : String(Math.abs(exp));
  return `${mantissa}e${exp < 0 ? '-' : '+'}${e}`;
}

/** fmt `%v` of any template value. */
export function goString(value: GoValue): string {
  if (value === NO_VALUE) return '<no value>';
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return goFloat(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(goString).join(' ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `map[${entries.map(([k, v]) => `${k}:${goString(v)}`).join(' ')}]`;
  }
  return String(value);
}

/** Go's truth of a value in `if`, `with`, `and`, `or`, `not`: false, 0, nil and empty are false. */
export function isTrue(value: GoValue): boolean {
  if (value === NO_VALUE || value === null || value === undefined) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'bigint') return value !== 0n;
  if (typeof value === 'string') return value.length > 0;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** A number of either Go kind as a JS number (for indexes, lengths, arithmetic). */
export function toNumber(value: GoValue): number {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return 0;
}

/** A value as JSON-compatible data (bigint → number, `<no value>` → null), for toJson/toYaml. */
export function toPlain(value: GoValue): unknown {
  if (value === NO_VALUE || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlain(v)]));
  }
  return value;
}

export function isMap(value: GoValue): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Go's type name of a value, for error messages (`can't evaluate field x in type string`). */
export function goTypeName(value: GoValue): string {
  if (value === null || value === undefined || value === NO_VALUE) return 'interface {}';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'float64';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return '[]interface {}';
  return 'map[string]interface {}';
}
