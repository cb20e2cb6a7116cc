/**
 * spawnWithTimeout — the one way wavesync runs a rendering tool (kustomize, kubectl kustomize, helm): array
 * arguments (no shell), stdin closed, a timeout that kills with SIGKILL, stdout collected whole and stderr kept
 * bounded (its last 4 000 characters) for the error message. It never throws: the caller turns the outcome into
 * its own error (ManifestError, BotError) and decides what a missing binary means (try the next renderer, or
 * name how to install it).
 */
import { spawn } from 'node:child_process';

export interface SpawnWithTimeoutOptions {
  cwd?: string;
  /** The child's whole environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Kill the process (SIGKILL) after this many ms. */
  timeoutMs: number;
}

/**
 * How a spawned tool ended:
 * - `ok`: exit code 0; `stdout` is its standard output (UTF-8).
 * - `not-found`: the binary is not on PATH (spawn failed with ENOENT).
 * - `spawn-error`: spawn failed for another reason (`error`).
 * - `failed`: exited non-zero or was killed; `why` is `timed out after <ms> ms` or `exited with <code|signal>`,
 *   `stderr` its trimmed, bounded standard error (may be empty).
 */
export type SpawnOutcome =
  | { kind: 'ok'; stdout: string }
  | { kind: 'not-found'; error: NodeJS.ErrnoException }
  | { kind: 'spawn-error'; error: NodeJS.ErrnoException }
  | { kind: 'failed'; why: string; stderr: string };

/** Run `command args…` to completion (or until `timeoutMs`); resolves with how it ended, never rejects. */
export function spawnWithTimeout(
  command: string,
  args: readonly string[],
  options: SpawnWithTimeoutOptions,
): Promise<SpawnOutcome> {
  return new Promise((resolve) => {
    const child = spawn(command, [...args], {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.env ? { env: options.env } : {}),
    });
    const stdout: Buffer[] = [];
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ kind: error.code === 'ENOENT' ? 'not-found' : 'spawn-error', error });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve({ kind: 'ok', stdout: Buffer.concat(stdout).toString('utf8') });
      const why =
        signal === 'SIGKILL' ? `timed out after ${options.timeoutMs} ms` : `exited with ${code ?? signal}`;
      resolve({ kind: 'failed', why, stderr: stderr.trim() });
    });
  });
}
