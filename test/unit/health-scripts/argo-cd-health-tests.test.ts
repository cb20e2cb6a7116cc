/**
 * Argo CD's own health script tests (`resource_customizations/<group>/<Kind>/health_test.yaml`, shared fixtures)
 * run through wavesync's Lua VM: every case's input must give exactly the expected status and message. As in
 * Argo CD's harness (util/lua/health_test.go), the script is picked by the input's apiVersion/kind (not by the
 * folder), keys are read case-insensitively, and a missing message means ''. An input is read as Go's YAML
 * (sigs.k8s.io/yaml) reads it: the first document only, a repeated key's last value wins, and unquoted timestamps
 * stay strings (the yaml library's default YAML 1.2 schema).
 *
 * The cases that cannot pass are listed in CANNOT_PASS with why; each is run and must still fail (so the list
 * stays true).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../../src/domain/index.js';
import { createHealthScriptCatalog, createHealthScriptVm } from '../../../src/health-scripts/index.js';
import { sharedFixturesDir } from '../../support/shared-fixtures.js';

const root = sharedFixturesDir('argo-cd-resource-customizations', 'resource_customizations');

function healthTestFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return healthTestFiles(full);
    return name === 'health_test.yaml' ? [full] : [];
  });
}

/** A field of a YAML mapping read case-insensitively, as Go's encoding/json does. */
function field(obj: Record<string, unknown>, name: string): unknown {
  const key = Object.keys(obj).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : obj[key];
}

interface Case {
  name: string;
  input: string;
  status: string;
  message: string;
}

const cases: Case[] = healthTestFiles(root)
  .sort()
  .flatMap((file) => {
    const tests = field(parse(readFileSync(file, 'utf8')) as Record<string, unknown>, 'tests') as Record<
      string,
      unknown
    >[];
    return tests.map((test) => {
      const expected = field(test, 'healthStatus') as Record<string, unknown>;
      const input = path.join(path.dirname(file), String(field(test, 'inputPath')));
      return {
        name: path.relative(root, input),
        input,
        status: String(field(expected, 'status')),
        message: String(field(expected, 'message') ?? ''),
      };
    });
  });

/** Go's YAML reading of one input: the first document, duplicate keys allowed (the last one wins). */
function readInput(file: string): KubeObject {
  const [first] = parseAllDocuments(readFileSync(file, 'utf8'), { uniqueKeys: false });
  if (first === undefined || !('errors' in first)) throw new Error(`${file}: no YAML document`);
  if (first.errors.length > 0) throw first.errors[0];
  return first.toJS() as KubeObject;
}

const CANNOT_PASS: Record<string, string> = {
  '_.crossplane.io/_/testdata/provider_degraded.yaml':
    'its input is a pkg.crossplane.io Provider: Argo CD picks pkg.crossplane.io/Provider/health.lua, which is not ' +
    'among the 193 folders of the fixtures, so the wildcard _.crossplane.io/_ script judges it (Progressing)',
  'db.atlasgo.io/AtlasSchema/testdata/healthy.yaml':
    "the input continues a quoted scalar at its key's own indentation: Go's YAML accepts it, the yaml library " +
    '(YAML 1.2) refuses it (Missing closing quote)',
  'work.karmada.io/ClusterResourceBinding/testdata/progressing.yaml':
    "the input continues a quoted scalar at its key's own indentation: Go's YAML accepts it, the yaml library " +
    '(YAML 1.2) refuses it (Missing closing quote)',
};

const catalog = createHealthScriptCatalog({ builtInDir: root });
const vm = createHealthScriptVm();

describe("Argo CD's health_test.yaml cases", () => {
  it('finds the cases', () => {
    expect(cases.length).toBeGreaterThan(700);
  });

  const check = ({ input, status, message }: Case) => {
    const obj = readInput(input);
    const script = catalog.scriptFor(obj.apiVersion, obj.kind);
    expect(script, `no script for ${obj.apiVersion} ${obj.kind}`).toBeDefined();
    expect(vm.run(script!, obj)).toEqual({ status, message });
  };
  const passing = cases.filter((c) => CANNOT_PASS[c.name] === undefined);
  const failing = cases.filter((c) => CANNOT_PASS[c.name] !== undefined);

  it.each(passing)('$name', check);

  it('lists only cases that exist', () => {
    expect(failing.map((c) => c.name).sort()).toEqual(Object.keys(CANNOT_PASS).sort());
  });

  it.fails.each(failing.map((c) => ({ ...c, why: CANNOT_PASS[c.name] })))('cannot pass: $name ($why)', check);
});
