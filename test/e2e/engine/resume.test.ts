import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationState } from '../../../src/domain/index.js';
import { type Harness, startHarness } from './support/engine-harness.js';

const child = path.resolve(import.meta.dirname, 'support/sync-child.ts');
const app = path.resolve(import.meta.dirname, 'apps/resume');
let h: Harness;
let dir: string;

beforeAll(async () => {
  h = await startHarness(4);
  dir = mkdtempSync(path.join(tmpdir(), 'wavesync-resume-'));
  await h.sim.writeKubeconfig(path.join(dir, 'kubeconfig'), { namespace: 'default' });
});

afterAll(async () => {
  await h.stop();
});

function start(stateFile: string): ChildProcess {
  const args = ['--import', 'tsx', child, path.join(dir, 'kubeconfig'), stateFile, app, 'default'];
  return spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
}

function readState(file: string): OperationState | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as OperationState) : undefined;
}

function exitOf(proc: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
}

/** Requests that created a Job (server-side apply answering 201 Created, or POST). */
function jobCreations(name: RegExp): number {
  return h.sim.requests.filter(
    (r) =>
      r.code === 201 && /\/jobs(\/|\?|$)/.test(r.path) && name.test(r.path) && !r.path.includes('dryRun'),
  ).length;
}

describe('resume after SIGKILL of the process running the operation', () => {
  it('continues from the persisted state and creates every hook exactly once', async () => {
    const stateFile = path.join(dir, 'state.json');
    const first = start(stateFile);
    await expect
      .poll(() => readState(stateFile)?.syncResult.resources.find((r) => r.name === 'migrate')?.hookPhase, {
        timeout: 60_000,
        interval: 50,
      })
      .toBe('Running');
    first.kill('SIGKILL');
    expect(await exitOf(first)).toBeNull();
    const saved = readState(stateFile)!;
    expect(saved.phase).toBe('Running');

    const second = start(stateFile);
    expect(await exitOf(second)).toBe(0);
    const final = readState(stateFile)!;

    expect(final.phase).toBe('Succeeded');
    expect(final.startedAt).toBe(saved.startedAt);
    expect(
      final.syncResult.resources.map((r) => [r.name.replace(/-[0-9a-f]{7}-presync-\d+$/, '-*'), r.hookPhase]),
    ).toEqual([
      ['migrate', 'Succeeded'],
      ['seed-*', 'Succeeded'],
      ['settings', 'Running'],
    ]);
    expect(jobCreations(/\/jobs\/migrate/)).toBe(1);
    expect(jobCreations(/\/jobs\/seed-/)).toBe(1);
    expect(final.syncResult.resources[0]?.logTail).toEqual(['migrating', 'migrated']);
  });
});
