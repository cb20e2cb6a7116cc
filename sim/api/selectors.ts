/**
 * Label selectors (`a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`) and field selectors
 * (`path=value`, `path==value`, `path!=value` on dotted paths such as metadata.name or status.phase), as LIST
 * and WATCH accept them in query strings. Core Events accept only the fields the API server's Event strategy makes
 * selectable (pkg/registry/core/event ToSelectableFields: involvedObject.*, reason, reportingComponent, source,
 * type, metadata.name, metadata.namespace); any other field is a 400 "field label not supported: <field>", as
 * kube-apiserver answers.
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

function fieldValue(obj: KubeObject, path: string): string {
  let node: unknown = obj;
  for (const part of path.split('.')) node = isJsonObject(node) ? node[part] : undefined;
  return node === undefined || node === null ? '' : String(node);
}

/**
 * The selectable fields of a core Event and how each is read (kube-apiserver pkg/registry/core/event/strategy.go
 * ToSelectableFields): `source` is `source.component`, else `reportingComponent` (Go's ReportingController), and
 * `reportingComponent` is that field itself.
 */
const EVENT_FIELDS: Record<string, (event: KubeObject) => string> = {
  'metadata.name': (e) => fieldValue(e, 'metadata.name'),
  'metadata.namespace': (e) => fieldValue(e, 'metadata.namespace'),
  ...Object.fromEntries(
    ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'].map((f) => [
      `involvedObject.${f}`,
      (e: KubeObject) => fieldValue(e, `involvedObject.${f}`),
    ]),
  ),
  reason: (e) => fieldValue(e, 'reason'),
  reportingComponent: (e) => fieldValue(e, 'reportingComponent'),
  source: (e) => fieldValue(e, 'source.component') || fieldValue(e, 'reportingComponent'),
  type: (e) => fieldValue(e, 'type'),
};

/** How a field of `kind`'s objects is read for a field selector; throws the API server's 400 for one it refuses. */
function fieldReader(
  kind: { group: string; kind: string } | undefined,
  path: string,
): (obj: KubeObject) => string {
  if (kind?.group === '' && kind.kind === 'Event') {
    const reader = EVENT_FIELDS[path];
    if (!reader) throw badRequest(`field label not supported: ${path}`);
    return reader;
  }
  return (obj) => fieldValue(obj, path);
}

/**
 * A field selector's test. `type` (group and kind of the listed resource) makes it as strict as the API server
 * where the simulator knows the type's selectable fields (core Events).
 */
export function fieldMatcher(
  selector: string | null | undefined,
  type?: { group: string; kind: string },
): (obj: KubeObject) => boolean {
  if (!selector) return () => true;
  const tests = splitTopLevel(selector).map((text) => {
    const m = /^([^\s!=]+)\s*(==|=|!=)\s*(.*)$/.exec(text);
    if (!m) throw badRequest(`invalid selector: '${selector}'; can't understand '${text}'`);
    const [, path = '', op, value = ''] = m;
    const read = fieldReader(type, path);
    return (obj: KubeObject) => (op === '!=' ? read(obj) !== value : read(obj) === value);
  });
  return (obj) => tests.every((t) => t(obj));
}
