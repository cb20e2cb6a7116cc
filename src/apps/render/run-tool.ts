/**
 * Run a rendering tool (helm, kustomize) with array arguments (no shell), a timeout and bounded stderr; its
 * standard output is the result. A missing binary is reported by name with how to get it.
 */
import { spawn } from 'node:child_process';
import { BotError } from '../../domain/errors.js';

export interface RunToolOptions {
  cwd?: string;
  /** Kill the tool after this many ms. */
  timeoutMs: number;
  /** Shown when the binary is not on PATH, e.g. "install helm 3: https://helm.sh/docs/intro/install/". */
  installHint: string;
}

/**
 * The tool's standard output.
 * @throws BotError('render_failed'): `<command> is not on PATH; <installHint>`, or the command line and the tool's
 *   own message (stderr) when it exits non-zero or times out.
 */
export function runTool(command: string, args: readonly string[], options: RunToolOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const message =
        error.code === 'ENOENT'
          ? `${command} is not on PATH; ${options.installHint}`
          : `${command} failed to start: ${error.message}`;
      reject(new BotError('render_failed', message, { cause: error }));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(Buffer.concat(stdout).toString('utf8'));
      const why =
        signal === 'SIGKILL' ? `timed out after ${options.timeoutMs} ms` : `exited with ${code ?? signal}`;
      reject(
        new BotError(
          'render_failed',
          `${command} ${args[0] ?? ''} ${why}: ${stderr.trim() || '(no output)'}`,
        ),
      );
    });
  });
}
