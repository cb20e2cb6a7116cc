/**
 * Label selectors (`a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`) and field selectors
 * (`path=value`, `path==value`, `path!=value` on dotted paths such as metadata.name or status.phase), as LIST
 * and WATCH accept them in query strings.
 */

import { isJsonObject, type KubeObject } from '../store/kube-object.js';
import { badRequest } from './status-error.js';

type Requirement = (labels: Record<string, string>) => boolean;

function splitTopLevel(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

function parseRequirement(text: string): Requirement {
  const setMatch = /^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(text);
  if (setMatch) {
    const [, key = '', op, list = ''] = setMatch;
    const values = list.split(',').map((v) => v.trim());
    return op === 'in'
      ? (l) => key in l && values.includes(l[key] ?? '')
      : (l) => !(key in l) || !values.includes(l[key] ?? '');
  }
  const cmp = /^([^\s!=]+)\s*(==|=|!=)\s*(.*)$/.exec(text);
  if (cmp) {
    const [, key = '', op, value = ''] = cmp;
    return op === '!=' ? (l) => l[key] !== value : (l) => l[key] === value;
  }
  if (/^![^\s!=]+$/.test(text)) return (l) => !(text.slice(1) in l);
  if (/^[^\s!=(),]+$/.test(text)) return (l) => text in l;
  throw badRequest(`unable to parse requirement: found '${text}', expected: in, notin, =, ==, !=, gt, lt`);
}

export function labelMatcher(selector: string | null | undefined): (obj: KubeObject) => boolean {
  if (!selector) return () => true;
  const requirements = splitTopLevel(selector).map(parseRequirement);
  return (obj) => requirements.every((r) => r(obj.metadata.labels ?? {}));
}

/** Does a structured selector `{matchLabels, matchExpressions}` select these labels? */
export function selectorMatches(selector: unknown, labels: Record<string, string> | undefined): boolean {
  if (!isJsonObject(selector)) return false;
  const l = labels ?? {};
  const matchLabels = (selector.matchLabels ?? {}) as Record<string, string>;
  if (!Object.entries(matchLabels).every(([k, v]) => l[k] === v)) return false;
  const expressions = (selector.matchExpressions ?? []) as {
    key: string;
    operator: string;
    values?: string[];
  }[];
  return expressions.every(({ key, operator, values = [] }) => {
    if (operator === 'In') return key in l && values.includes(l[key] ?? '');
    if (operator === 'NotIn') return !(key in l) || !values.includes(l[key] ?? '');
    if (operator === 'Exists') return key in l;
    return !(key in l);
  });
}

function fieldValue(obj: KubeObject, path: string): string {
  let node: unknown = obj;
  for (const part of path.split('.')) node = isJsonObject(node) ? node[part] : undefined;
  return node === undefined || node === null ? '' : String(node);
}

export function fieldMatcher(selector: string | null | undefined): (obj: KubeObject) => boolean {
  if (!selector) return () => true;
  const tests = splitTopLevel(selector).map((text) => {
    const m = /^([^\s!=]+)\s*(==|=|!=)\s*(.*)$/.exec(text);
    if (!m) throw badRequest(`invalid selector: '${selector}'; can't understand '${text}'`);
    const [, path = '', op, value = ''] = m;
    return (obj: KubeObject) =>
      op === '!=' ? fieldValue(obj, path) !== value : fieldValue(obj, path) === value;
  });
  return (obj) => tests.every((t) => t(obj));
}
