/**
 * wavesync's CRD check against Argo CD's: every case of the bundled CustomResourceDefinition health script's
 * health_test.yaml (shared fixtures) gives the same status and message through wavesync's port of it as
 * through the script itself in the Lua VM. (getResourceHealth, as gitops-engine, says "Pending deletion" for any
 * object with a deletionTimestamp before a kind's check is asked.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { KubeObject } from '../../../src/domain/index.js';
import { getCustomResourceDefinitionHealth } from '../../../src/engine/health/custom-resource-definition-health.js';
import { getResourceHealth } from '../../../src/engine/index.js';
import { createHealthScriptVm } from '../../../src/health-scripts/index.js';
import { sharedFixturesDir } from '../../support/shared-fixtures.js';

const dir = sharedFixturesDir(
  'argo-cd-resource-customizations',
  'resource_customizations',
  'apiextensions.k8s.io',
  'CustomResourceDefinition',
);
const tests = (
  parse(readFileSync(path.join(dir, 'health_test.yaml'), 'utf8')) as {
    tests: { healthStatus: { status: string; message: string }; inputPath: string }[];
  }
).tests;
const script = {
  name: 'health.lua',
  source: readFileSync(path.join(dir, 'health.lua'), 'utf8'),
  openLibs: true,
};
const vm = createHealthScriptVm();

describe("CRD health: wavesync's check gives Argo CD's answers", () => {
  it('judges CRDs with the port (built-in scripts are not asked for a kind wavesync checks)', async () => {
    const crd = parse(readFileSync(path.join(dir, 'testdata/crd-v1-installing-progressing.yaml'), 'utf8'));
    expect(await getResourceHealth(crd)).toEqual({
      status: 'Progressing',
      message: 'CRD is being installed',
    });
  });

  it('covers the 8 cases of the fixture', () => {
    expect(tests).toHaveLength(8);
  });

  it.each(tests)('$inputPath → $healthStatus.status', async ({ inputPath, healthStatus }) => {
    const crd = parse(readFileSync(path.join(dir, inputPath), 'utf8')) as KubeObject;
    expect(getCustomResourceDefinitionHealth(crd)).toEqual(healthStatus);
    expect(vm.run(script, crd)).toEqual(healthStatus);
  });

  it('a CRD just created, before the API server set any condition, is Progressing', async () => {
    const crd: KubeObject = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      status: { conditions: [] },
    };
    expect(await getResourceHealth(crd)).toEqual({
      status: 'Progressing',
      message: 'Status conditions not found',
    });
  });
});
