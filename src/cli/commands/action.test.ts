import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type CommandRun, runCommand } from '../../../test/support/run-command.js';
import { sharedFixturesDir } from '../../../test/support/shared-fixtures.js';
import { registerActionCommand } from './action.js';

const customizations = sharedFixturesDir('argo-cd-resource-customizations', 'resource_customizations');
const deployment = path.join(customizations, 'apps', 'Deployment', 'actions', 'testdata', 'deployment.yaml');
const action = (...args: string[]): Promise<CommandRun> =>
  runCommand(registerActionCommand, ['action', ...args]);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wavesync-action-'));
  await writeFile(
    path.join(dir, 'widget.yaml'),
    'apiVersion: example.com/v1\nkind: Widget\nmetadata: { name: w, namespace: ns }\nspec: { size: 1 }\n',
  );
  await writeFile(
    path.join(dir, 'wavesync.yaml'),
    [
      'health:',
      '  argocdCm:',
      '    resource.customizations.actions.example.com_Widget: |',
      '      discovery.lua: |',
      '        return { grow = { params = { { name = "by", default = "1" } } } }',
      '      definitions:',
      '        - name: grow',
      '          action.lua: |',
      '            obj.spec.size = obj.spec.size + tonumber(actionParams.by)',
      '            return obj',
    ].join('\n'),
  );
});

describe('wavesync action', () => {
  it("lists what discovery offers, from Argo CD's folder, disabled actions included", async () => {
    const run = await action(deployment, '--list', '--resource-customizations', customizations);
    expect({ stderr: run.stderr, exitCode: run.exitCode }).toEqual({ stderr: '', exitCode: 0 });
    expect(
      (parse(run.stdout) as { name: string; disabled: boolean }[]).map((a) => [a.name, a.disabled]),
    ).toEqual([
      ['pause', false],
      ['restart', false],
      ['resume', true],
      ['scale', false],
    ]);
  });

  it('prints the patched object with a parameter, as JSON', async () => {
    const run = await action(
      deployment,
      'scale',
      '--param',
      'replicas=6',
      '--resource-customizations',
      customizations,
      '-o',
      'json',
    );
    expect(run.exitCode).toBe(0);
    const [impacted] = JSON.parse(run.stdout);
    expect(impacted.operation).toBe('patch');
    expect(impacted.resource.spec.replicas).toBe(6);
  });

  it('runs the Go built-in restart without any customizations', async () => {
    const run = await action(deployment, 'restart');
    expect(run.exitCode).toBe(0);
    const [impacted] = parse(run.stdout);
    expect(impacted.resource.spec.template.metadata.annotations['kubectl.kubernetes.io/restartedAt']).toMatch(
      /Z$/,
    );
  });

  it("runs a team's own argocd-cm action from wavesync.yaml, a declared parameter's default filled in", async () => {
    const file = path.join(dir, 'widget.yaml');
    const run = await action(file, 'grow', '--config', path.join(dir, 'wavesync.yaml'), '-o', 'json');
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)[0].resource.spec).toEqual({ size: 2 });
  });

  it('refuses a disabled action, an unknown one and an undeclared parameter (exit 2); a failing script exits 1', async () => {
    const flags = ['--resource-customizations', customizations];
    const paused = path.join(path.dirname(deployment), 'deployment-pause.yaml');
    const disabled = await action(paused, 'pause', ...flags);
    expect([disabled.exitCode, disabled.stderr]).toEqual([
      2,
      'error: action pause is disabled for Deployment/nginx-deploy now\n',
    ]);
    const unknown = await action(deployment, 'explode', ...flags);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('offers no action explode (it offers pause, restart, resume, scale)');
    const param = await action(deployment, 'scale', '--param', 'replica=3', ...flags);
    expect(param.stderr).toContain('has no parameter replica (it takes replicas)');
    const failing = await action(deployment, 'scale', '--param', 'replicas=many', ...flags);
    expect([failing.exitCode, failing.stderr]).toEqual([
      1,
      'error: the action failed: invalid number: many\n',
    ]);
    const both = await action(deployment, 'restart', '--list');
    expect(both.exitCode).toBe(2);
  });
});
