/**
 * A real `wavesync <role>` child process (node bin/wavesync.js), as an operator runs it: configured by environment
 * only, pino JSON logs on stdout. Resolves once the process logs that it listens, with its port.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

export interface WavesyncProcess {
  readonly role: string;
  readonly child: ChildProcess;
  readonly port: number;
  /** Every log line so far, parsed. */
  readonly logs: Record<string, unknown>[];
  /** Resolves with the exit code (or signal name) when the process ends. */
  readonly exited: Promise<number | string>;
  /** SIGTERM and wait for the exit (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<number | string>;
}

const root = path.resolve(import.meta.dirname, '../../..');

/** Start `role` with `env` (merged over PATH/HOME only) and wait until it listens (timeout 90 s: tsx compiles the sources on a busy machine). */
export async function startWavesyncProcess(
  role: string,
  env: Record<string, string>,
  /** Options for node itself (e.g. `--cpu-prof`, which NODE_OPTIONS refuses). */
  nodeArgs: readonly string[] = [],
): Promise<WavesyncProcess> {
  // Profiling a child (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`): WAVESYNC_E2E_NODE_ARGS, split at spaces, after
  // the caller's own node arguments.
  const args = [...nodeArgs, ...(process.env.WAVESYNC_E2E_NODE_ARGS?.split(' ').filter(Boolean) ?? [])];
  const child = spawn(process.execPath, [...args, path.join(root, 'bin/wavesync.js'), role], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1));
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`${role} did not start within 90 s: ${stderr}`)), 90_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const entry = parse(line);
        if (!entry) continue;
        logs.push(entry);
        if (entry.msg === 'wavesync started' && typeof entry.port === 'number') {
          clearTimeout(timer);
          resolve(entry.port);
        }
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${role} exited (${code}) before it started: ${stderr}`));
    });
  });
  return {
    role,
    child,
    port,
    logs,
    exited,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

function parse(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
