import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../test/support/run-command.js';
import { registerPlanCommand } from './commands/plan.js';

/** `plan --app` (as diff and sync --app) around the render: checks before any fetch, failures said per Application. */
let dir: string;
let config: string;

const application = (name: string, source: string, extra = '') =>
  [
    'apiVersion: argoproj.io/v1alpha1',
    'kind: Application',
    `metadata: { name: ${name} }`,
    'spec:',
    '  project: default',
    `  source: ${source}`,
    `  destination: { server: https://kubernetes.default.svc, namespace: ${name} }`,
    extra,
  ].join('\n');

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wavesync-app-render-'));
  await mkdir(path.join(dir, 'apps'));
  await mkdir(path.join(dir, 'plugin-src'));
  await writeFile(path.join(dir, 'plugin-src', 'input.txt'), 'x\n');
  config = path.join(dir, 'wavesync.yaml');
  await writeFile(
    config,
    [
      'applications: [{ directory: apps }]',
      `defaults: { gitCacheDir: ${path.join(dir, 'cache')}, gitRequestTimeoutSeconds: 5 }`,
      'plugins:',
      '  - name: failing',
      // Two lines on stderr, then exit 3: the raw detail of a failed render.
      "    generate: { command: [sh, -c, 'echo first problem >&2; echo second problem >&2; exit 3'] }",
      '',
    ].join('\n'),
  );
  await writeFile(
    path.join(dir, 'apps', 'apps.yaml'),
    [
      // Port 1 on loopback refuses at once: an unreachable repository, and a plugin nobody declared.
      application('undeclared', '{ repoURL: "https://127.0.0.1:1/x.git", path: x, plugin: { name: nope } }'),
      '---',
      application(
        'unreachable',
        '{ repoURL: "https://127.0.0.1:1/x.git", path: x, targetRevision: main }',
        '  notAField: true',
      ),
      '---',
      application('failing', '{ repoURL: "", path: plugin-src, plugin: { name: failing } }'),
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const plan = (app: string) => runCommand(registerPlanCommand, ['plan', '--app', app, '--config', config]);

describe('--app commands around the render', () => {
  it('an undeclared plugin is bad input (exit 2) naming the Application file:line, before any git fetch', async () => {
    const { stdout, stderr, exitCode } = await plan('undeclared');
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `error: Application undeclared: spec.source.plugin.name nope is not declared under plugins: in wavesync.yaml (${path.join(dir, 'apps', 'apps.yaml')}:1): declare it under plugins: as Argo CD's plugin.yaml declares it (declared: failing)\n`,
    );
    expect(exitCode).toBe(2);
  });

  it('an unreachable repository: the field warnings first, then one line naming the Application and source, git below', async () => {
    const { stdout, stderr, exitCode } = await plan('unreachable');
    expect(stdout).toBe('');
    const lines = stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^warning: .*apps\.yaml:\d+: Application unreachable: spec\.notAField: /);
    expect(lines[1]).toMatch(
      /^error: cannot render Application unreachable, source git https:\/\/127\.0\.0\.1:1\/x\.git path x at main: git ls-remote of https:\/\/127\.0\.0\.1:1\/x\.git failed \(.*apps\.yaml:\d+\)$/,
    );
    expect(lines.slice(2).every((l) => l.startsWith('    '))).toBe(true);
    expect(lines.length).toBeGreaterThan(2);
    expect(exitCode).toBe(1);
  });

  it("a failed render exits 1 (README), the tool's multi-line output indented under a one-line cause", async () => {
    const { stdout, stderr, exitCode } = await plan('failing');
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^error: cannot render Application failing, source local folder plugin-src: plugin failing generate: sh -c exited with 3 \(.*apps\.yaml:\d+\)\n {4}first problem\n {4}second problem\n$/,
    );
    expect(exitCode).toBe(1);
  });
});
