import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CommandRun, runCommand } from '../../../test/support/run-command.js';
import { sharedFixturesDir } from '../../../test/support/shared-fixtures.js';
import { registerHealthCommand } from './health.js';

const customizations = sharedFixturesDir('argo-cd-resource-customizations', 'resource_customizations');
const certificates = path.join(customizations, 'cert-manager.io', 'Certificate', 'testdata');

const health = (...args: string[]): Promise<CommandRun> =>
  runCommand(registerHealthCommand, ['health', ...args]);
const lines = (run: CommandRun) => run.stdout.trim().split('\n');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wavesync-health-'));
  await writeFile(
    path.join(dir, 'objects.yaml'),
    [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: { name: cfg, annotations: { color: white } }',
      '---',
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: { name: web, generation: 2 }',
      'spec: { replicas: 1 }',
      'status: { observedGeneration: 1 }',
    ].join('\n'),
  );
  await writeFile(
    path.join(dir, 'wavesync.yaml'),
    [
      'health:',
      '  argocdCm:',
      '    resource.customizations.health.ConfigMap: |',
      '      if obj.metadata.annotations.color == "white" then',
      '        return { status = "Degraded", message = "use a different color" }',
      '      end',
      '      return { status = "Healthy" }',
    ].join('\n'),
  );
});

describe('wavesync health', () => {
  it("prints each object's health from Argo CD's built-in scripts, one JSON object per document", async () => {
    const run = await health(certificates, '--resource-customizations', customizations, '-o', 'json');
    expect({ stderr: run.stderr, exitCode: run.exitCode }).toEqual({ stderr: '', exitCode: 0 });
    const results = lines(run).map((l) => JSON.parse(l));
    expect(results.length).toBeGreaterThan(4);
    expect(results).toContainEqual(
      expect.objectContaining({
        apiVersion: expect.stringMatching(/^cert-manager\.io\//),
        kind: 'Certificate',
        name: 'test-cert',
        status: 'Progressing',
        message: 'Issuing certificate as Secret does not exist',
      }),
    );
    expect(new Set(results.map((r) => r.status))).toEqual(new Set(['Degraded', 'Healthy', 'Progressing']));
  });

  it("a team's own argocd-cm override (--config) and wavesync's own checks; no check = no health", async () => {
    const run = await health(path.join(dir, 'objects.yaml'), '--config', path.join(dir, 'wavesync.yaml'));
    expect(run.exitCode).toBe(0);
    expect(lines(run)).toEqual([
      expect.stringMatching(/objects\.yaml:1 ConfigMap\/cfg: Degraded — use a different color$/),
      expect.stringMatching(/objects\.yaml:5 Deployment\/web: Progressing — Waiting for rollout/),
    ]);
    const plain = await health(path.join(dir, 'objects.yaml'));
    expect(lines(plain)[0]).toMatch(/ConfigMap\/cfg: \(no health\) — no health check for this kind$/);
    const certificate = await health(path.join(certificates, 'healthy_issued.yaml'));
    expect(lines(certificate)[0]).toMatch(/Certificate\/test-cert: \(no health\)/);
  });

  it('bad input: exit 2 naming what is wrong, nothing on stdout', async () => {
    const missing = await health(path.join(dir, 'nope.yaml'));
    expect(missing).toMatchObject({ stdout: '', exitCode: 2 });
    expect(missing.stderr).toMatch(/nope\.yaml/);
    const folder = await health(certificates, '--resource-customizations', path.join(dir, 'none'));
    expect(folder).toMatchObject({ stdout: '', exitCode: 2 });
    expect(folder.stderr).toMatch(/health scripts folder not found: .*none \(--resource-customizations\)/);
  });

  it('judges every document and lists each bad one with file:line (missing name, duplicate key, invalid YAML), exit 2', async () => {
    const file = path.join(dir, 'mixed.yaml');
    await writeFile(
      file,
      [
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata: { name: first }',
        '---',
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata: { labels: { a: b } }',
        '---',
        'apiVersion: v1',
        'kind: ConfigMap',
        'kind: Secret',
        'metadata: { name: twice }',
        '---',
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata: { name: [unclosed }',
        '---',
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: { name: last, generation: 1 }',
        'status: { observedGeneration: 1, replicas: 1, updatedReplicas: 1, availableReplicas: 1 }',
      ].join('\n'),
    );
    const run = await health(file, '-o', 'json');
    expect(run.exitCode).toBe(2);
    const results = lines(run).map((l) => JSON.parse(l));
    expect(results.map((r) => r.name ?? `line ${r.line}`)).toEqual([
      'first',
      'line 7',
      'line 11',
      'line 16',
      'last',
    ]);
    expect(results[1].error).toMatch(/metadata\.name/);
    expect(results[2].error).toMatch(/unique/i);
    expect(results[3].error).toMatch(/^YAML syntax error/);
    expect(results[4]).toMatchObject({ kind: 'Deployment', status: 'Healthy' });
    expect(run.stderr).toMatch(/3 documents could not be judged \(listed above\); 2 judged/);
    const text = await health(file);
    expect(lines(text)[1]).toMatch(/mixed\.yaml:7 error: .*metadata\.name/);
  });
});
