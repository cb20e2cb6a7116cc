/**
 * `wavesync diff` (in process through commander) against the simulator: exit 0 with no changes, 1 with a
 * coloured unified diff after a live edit, 2 on error; Secret values never printed (text or JSON).
 */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import { registerDiffCommand } from '../../../src/cli/commands/diff.js';
import type { CommandIo } from '../../../src/cli/commands/plan.js';
import { registerSyncCommand } from '../../../src/cli/commands/sync.js';
import { runCommand } from '../../support/run-command.js';

let sim: Simulator;
let dir: string;
let kubeconfig: string;

beforeAll(async () => {
  sim = await startSimulator({ speed: 20 });
  dir = mkdtempSync(path.join(tmpdir(), 'wavesync-diff-cli-'));
  kubeconfig = path.join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfig, { namespace: 'default' });
});

afterAll(async () => {
  await sim.stop();
});

/** `wavesync <args>` in process through commander (diff and sync), as the real binary registers them. */
function wavesync(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const register = (program: Command, io: CommandIo) => {
    registerSyncCommand(program, io);
    registerDiffCommand(program, io);
  };
  return runCommand(register, args).then((run) => ({
    code: run.exitCode,
    stdout: run.stdout,
    stderr: run.stderr,
  }));
}

const manifest = (password: string, level: string) =>
  [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata: { name: settings }',
    `data: { LOG_LEVEL: ${level} }`,
    '---',
    'apiVersion: v1',
    'kind: Secret',
    'metadata: { name: creds }',
    `stringData: { DB_PASSWORD: ${password} }`,
    '',
  ].join('\n');

describe('wavesync diff against the simulator', () => {
  it('exits 0 when in sync, 1 with a coloured diff naming the change, 2 on error; never prints a Secret value', async () => {
    const file = path.join(dir, 'cli-diff.yaml');
    writeFileSync(file, manifest('first-pass', 'info'));
    const common = ['--kubeconfig', kubeconfig, '-n', 'default'];
    expect((await wavesync('sync', file, ...common)).code).toBe(0);

    const clean = await wavesync('diff', file, ...common);
    expect(clean.stderr).toBe('');
    expect(clean.code).toBe(0);
    expect(clean.stdout.split('\n')[0]).toMatch(/^cli-diff · revision local@[0-9a-f]{8} · no changes$/);

    writeFileSync(file, manifest('second-pass', 'debug'));
    const changed = await wavesync('diff', file, ...common, '--color', 'always');
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('===== ConfigMap default/settings (change) =====');
    expect(changed.stdout).toContain('\u001b[31m-  LOG_LEVEL: info\u001b[0m');
    expect(changed.stdout).toContain('\u001b[32m+  LOG_LEVEL: debug\u001b[0m');
    expect(changed.stdout).toContain('Secret keys changed (values hidden): DB_PASSWORD');
    const json = await wavesync('diff', file, ...common, '--output', 'json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).counts).toMatchObject({ change: 2, create: 0 });
    for (const output of [changed.stdout, json.stdout]) {
      for (const value of ['first-pass', 'second-pass']) {
        expect(output).not.toContain(value);
        expect(output).not.toContain(Buffer.from(value).toString('base64'));
      }
    }

    const missing = await wavesync('diff', path.join(dir, 'nope.yaml'), ...common);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: /);
    expect(missing.stdout).toBe('');
  }, 30_000);
});
