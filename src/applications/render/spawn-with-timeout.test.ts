import { describe, expect, it } from 'vitest';
import { spawnWithTimeout } from './spawn-with-timeout.js';

const node = process.execPath;

describe('spawnWithTimeout', () => {
  it('when the tool exits 0, then its stdout is the result', async () => {
    const outcome = await spawnWithTimeout(node, ['-e', 'process.stdout.write("kind: ConfigMap\\n")'], {
      timeoutMs: 30_000,
    });
    expect(outcome).toEqual({ kind: 'ok', stdout: 'kind: ConfigMap\n' });
  });

  it('when the tool exits non-zero, then the exit code and its trimmed stderr are given', async () => {
    const outcome = await spawnWithTimeout(node, ['-e', 'console.error("  bad input  "); process.exit(3)'], {
      timeoutMs: 30_000,
    });
    expect(outcome).toEqual({ kind: 'failed', why: 'exited with 3', stderr: 'bad input' });
  });

  it('when the binary is not on PATH, then the outcome is not-found', async () => {
    const outcome = await spawnWithTimeout('wavesync-no-such-tool', [], { timeoutMs: 30_000 });
    expect(outcome.kind).toBe('not-found');
  });

  it('when the tool outlives the timeout, then it is killed and the outcome says so', async () => {
    const outcome = await spawnWithTimeout(node, ['-e', 'setTimeout(() => {}, 60_000)'], { timeoutMs: 50 });
    expect(outcome).toEqual({ kind: 'failed', why: 'timed out after 50 ms', stderr: '' });
  });

  it('when given a cwd, then the tool runs there', async () => {
    const outcome = await spawnWithTimeout(node, ['-e', 'process.stdout.write(process.cwd())'], {
      cwd: '/',
      timeoutMs: 30_000,
    });
    expect(outcome).toEqual({ kind: 'ok', stdout: '/' });
  });
});
