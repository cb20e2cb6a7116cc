/**
 * Argo CD's own resource-action tests (`resource_customizations/<group>/<Kind>/actions/action_test.yaml`, shared
 * fixtures) run through wavesync's action runtime, every case, with the semantics of Argo CD's harness
 * (util/lua/custom_actions_test.go; the fixtures' SOURCE.md):
 * - discovery: every action the script offers must be one of the case's `result` (name, disabled, iconClass,
 *   displayName, params; an absent field is the empty value);
 * - an action: parameters are strings; `expectedErrorMessage` must equal the error; otherwise every object the
 *   action patches or creates is matched to an object of `expectedOutputPath` (one object or a List) by
 *   group/kind/namespace/name — by name prefix for a Job created from a CronJob or a Workflow from a
 *   CronWorkflow/WorkflowTemplate (whose name carries the time) — and a patch may only touch the source object;
 * - comparison: gitops-engine's two-way diff (the expected object is the config: a field only in the result does not
 *   count; a list counts whole) after the harness's normalizer of time-dependent fields (see normalize below);
 *   whole numbers compare equal whether int or float.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { splitApiVersion } from '../../../src/domain/index.js';
import {
  createResourceActionCatalog,
  isJsonObject,
  type Json,
  type JsonObject,
  type ResourceAction,
} from '../../../src/resource-actions/index.js';
import { sharedFixturesDir } from '../../support/shared-fixtures.js';

const root = sharedFixturesDir('argo-cd-resource-customizations', 'resource_customizations');
const catalog = createResourceActionCatalog({ builtInDir: root });

function actionTestFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return actionTestFiles(full);
    return name === 'action_test.yaml' ? [full] : [];
  });
}

/** Go's YAML reading: the first document, a repeated key's last value wins, unquoted timestamps stay strings. */
function readYamlObject(file: string): JsonObject {
  const [first] = parseAllDocuments(readFileSync(file, 'utf8'), { uniqueKeys: false });
  if (first === undefined || !('errors' in first)) throw new Error(`${file}: no YAML document`);
  if (first.errors.length > 0) throw first.errors[0];
  return first.toJS() as JsonObject;
}

interface DiscoveryCase {
  name: string;
  input: string;
  result: ResourceAction[];
}
interface ActionCase {
  name: string;
  action: string;
  input: string;
  expected?: string;
  error?: string;
  params: Record<string, string>;
}

const files = actionTestFiles(root).sort();
const discoveryCases: DiscoveryCase[] = [];
const actionCases: ActionCase[] = [];
for (const file of files) {
  const dir = path.dirname(file);
  const spec = parse(readFileSync(file, 'utf8')) as {
    discoveryTests?: { inputPath: string; result: ResourceAction[] | null }[];
    actionTests?: {
      action: string;
      inputPath: string;
      expectedOutputPath?: string;
      expectedErrorMessage?: string;
      parameters?: Record<string, unknown>;
    }[];
  };
  const where = path.relative(root, dir);
  for (const test of spec.discoveryTests ?? []) {
    discoveryCases.push({
      name: `${where} discovery ${test.inputPath}`,
      input: path.join(dir, test.inputPath),
      result: test.result ?? [],
    });
  }
  for (const test of spec.actionTests ?? []) {
    actionCases.push({
      name: `${where} ${test.action} ${test.inputPath}`,
      action: test.action,
      input: path.join(dir, test.inputPath),
      ...(test.expectedOutputPath ? { expected: path.join(dir, test.expectedOutputPath) } : {}),
      ...(test.expectedErrorMessage ? { error: test.expectedErrorMessage } : {}),
      params: Object.fromEntries(Object.entries(test.parameters ?? {}).map(([k, v]) => [k, String(v)])),
    });
  }
}

/** Argo CD's ResourceAction as its harness compares it: absent fields are the empty value. */
function comparable(action: ResourceAction) {
  return {
    name: action.name,
    disabled: action.disabled ?? false,
    iconClass: action.iconClass ?? '',
    displayName: action.displayName ?? '',
    params: (action.params ?? []).map((p) => ({
      name: p.name,
      value: p.value ?? '',
      type: p.type ?? '',
      default: p.default ?? '',
    })),
  };
}

function at(obj: JsonObject, ...keys: string[]): JsonObject | undefined {
  let current: Json | undefined = obj;
  for (const key of keys) current = isJsonObject(current) ? current[key] : undefined;
  return isJsonObject(current) ? current : undefined;
}

/** Sets obj.<keys> (creating maps on the way); `undefined` removes it. */
function setAt(obj: JsonObject, keys: string[], value: Json | undefined): void {
  let current = obj;
  for (const key of keys.slice(0, -1)) {
    if (!isJsonObject(current[key])) current[key] = {};
    current = current[key] as JsonObject;
  }
  const last = keys[keys.length - 1] as string;
  if (value === undefined) delete current[last];
  else current[last] = value;
}

const ZERO_TIME = '0001-01-01T00:00:00Z';

/**
 * The harness's normalizer (custom_actions_test.go's testNormalizer, applied to both sides), for the fields that
 * hold the time the action ran: a Job's metadata, the pod template's annotations of a Deployment/StatefulSet/
 * DaemonSet (set to restartedAt only), a Deployment's status, creationTimestamp and generation, a Rollout's
 * spec.restartAt, an ExternalSecret's/PushSecret's annotations (force-sync only), a Workflow's resourceVersion, uid
 * and scheduled-time annotation; at the fixtures' commit also CloudNativePG's reload/restart annotations and
 * promote time, Flux's reconcile request annotation and a Job's FailureTarget condition time.
 */
function normalize(obj: JsonObject): JsonObject {
  const copy = structuredClone(obj);
  const kind = String(copy.kind);
  const group = splitApiVersion(String(copy.apiVersion ?? '')).group;
  if (kind === 'Job') {
    setAt(copy, ['metadata'], { name: 'normalized' });
    const conditions = at(copy, 'status')?.conditions;
    if (Array.isArray(conditions)) {
      for (const c of conditions)
        if (isJsonObject(c) && c.type === 'FailureTarget') c.lastTransitionTime = ZERO_TIME;
    }
  }
  if (['DaemonSet', 'Deployment', 'StatefulSet'].includes(kind)) {
    setAt(copy, ['spec', 'template', 'metadata', 'annotations'], {
      'kubectl.kubernetes.io/restartedAt': ZERO_TIME,
    });
  }
  if (kind === 'Deployment') {
    for (const keys of [['status'], ['metadata', 'creationTimestamp'], ['metadata', 'generation']]) {
      setAt(copy, keys, undefined);
    }
  }
  if (kind === 'Rollout') setAt(copy, ['spec', 'restartAt'], undefined);
  if (kind === 'ExternalSecret' || kind === 'PushSecret') {
    setAt(copy, ['metadata', 'annotations'], { 'force-sync': ZERO_TIME });
  }
  if (kind === 'Workflow') {
    setAt(copy, ['metadata', 'resourceVersion'], undefined);
    setAt(copy, ['metadata', 'uid'], undefined);
    setAt(copy, ['metadata', 'annotations', 'workflows.argoproj.io/scheduled-time'], undefined);
  }
  const annotations = at(copy, 'metadata', 'annotations');
  if (group === 'postgresql.cnpg.io' && kind === 'Cluster') {
    for (const key of ['cnpg.io/reloadedAt', 'kubectl.kubernetes.io/restartedAt']) {
      if (annotations && key in annotations) annotations[key] = ZERO_TIME;
    }
    if (at(copy, 'status')?.targetPrimaryTimestamp !== undefined) {
      setAt(copy, ['status', 'targetPrimaryTimestamp'], ZERO_TIME);
    }
  }
  if (
    group.endsWith('toolkit.fluxcd.io') &&
    annotations &&
    'reconcile.fluxcd.io/requestedAt' in annotations
  ) {
    annotations['reconcile.fluxcd.io/requestedAt'] = ZERO_TIME;
  }
  return copy;
}

/** Two-way diff: every field of `expected` is in `actual` with the same value; lists compare whole. */
function differences(expected: Json, actual: Json | undefined, where: string, out: string[]): string[] {
  if (isJsonObject(expected)) {
    if (!isJsonObject(actual)) out.push(`${where}: expected an object, got ${JSON.stringify(actual)}`);
    else
      for (const [key, value] of Object.entries(expected)) {
        if (value !== null) differences(value, actual[key], `${where}.${key}`, out);
        else if (actual[key] !== undefined && actual[key] !== null)
          out.push(`${where}.${key}: expected absent`);
      }
  } else if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      out.push(`${where}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    } else {
      expected.forEach((item, i) => {
        const sub: string[] = [];
        differences(item, actual[i], `${where}[${i}]`, sub);
        differences(actual[i] as Json, item, `${where}[${i}]`, sub);
        out.push(...sub);
      });
    }
  } else if (expected !== actual) {
    out.push(`${where}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
  return out;
}

function identity(obj: JsonObject): { group: string; kind: string; namespace: string; name: string } {
  const metadata = at(obj, 'metadata') ?? {};
  return {
    group: splitApiVersion(String(obj.apiVersion ?? '')).group,
    kind: String(obj.kind ?? ''),
    namespace: String(metadata.namespace ?? ''),
    name: String(metadata.name ?? ''),
  };
}

/** The harness's findFirstMatchingItem: by GVK, namespace and name (name prefix for a Job/Workflow made from the source). */
function matchExpected(
  result: JsonObject,
  source: JsonObject,
  expected: JsonObject[],
): JsonObject | undefined {
  const got = identity(result);
  const from = identity(source);
  const byPrefix =
    (got.kind === 'Job' && from.kind === 'CronJob') ||
    (got.kind === 'Workflow' && ['CronWorkflow', 'WorkflowTemplate'].includes(from.kind));
  return expected.find((candidate) => {
    const want = identity(candidate);
    if (
      candidate.apiVersion !== result.apiVersion ||
      want.kind !== got.kind ||
      want.namespace !== got.namespace
    ) {
      return false;
    }
    return byPrefix ? want.name.startsWith(from.name) : want.name === got.name;
  });
}

/** The expected output: one object (old style) or a list of {k8sOperation, unstructuredObj} (new style). */
function expectedObjects(file: string): JsonObject[] {
  const text = readFileSync(file, 'utf8');
  if (!text.startsWith('-')) return [readYamlObject(file)];
  return (parse(text) as JsonObject[]).map((item) => item.unstructuredObj as JsonObject);
}

describe("Argo CD's action_test.yaml cases", () => {
  it('finds every file and case of the fixtures', () => {
    expect(files.length).toBe(28);
    expect(discoveryCases.length).toBeGreaterThan(50);
    expect(actionCases.length).toBeGreaterThan(60);
  });

  it.each(discoveryCases)('$name', ({ input, result }) => {
    const offered = catalog.discover(readYamlObject(input));
    const allowed = result.map(comparable);
    for (const action of offered) expect(allowed).toContainEqual(comparable(action));
  });

  it.each(actionCases)('$name', ({ action, input, expected, error, params }) => {
    const obj = readYamlObject(input);
    if (error !== undefined) {
      expect(() => catalog.run(obj, action, params)).toThrow(expect.objectContaining({ message: error }));
      return;
    }
    const impacted = catalog.run(obj, action, params);
    expect(impacted.length).toBeGreaterThan(0);
    const wanted = expectedObjects(expected as string);
    for (const item of impacted) {
      const match = matchExpected(item.resource, obj, wanted);
      expect(match, `no expected object for ${JSON.stringify(identity(item.resource))}`).toBeDefined();
      if (item.operation === 'patch') expect(identity(item.resource)).toEqual(identity(obj));
      const metadata = at(item.resource, 'metadata');
      if (
        item.operation === 'create' &&
        ['Job', 'Workflow'].includes(String(item.resource.kind)) &&
        metadata
      ) {
        metadata.name = identity(match as JsonObject).name;
      }
      expect(differences(normalize(match as JsonObject), normalize(item.resource), '', [])).toEqual([]);
    }
  });
});
