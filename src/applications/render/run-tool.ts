/**
 * Run a rendering tool (helm, kustomize) through spawnWithTimeout (array arguments, no shell, a timeout, bounded
 * stderr); its standard output is the result. A missing binary is reported by name with how to get it.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { BotError } from '../../domain/index.js';
import { spawnWithTimeout } from './spawn-with-timeout.js';

export interface RunToolOptions {
  cwd?: string;
  /** The tool's whole environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
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
export async function runTool(
  command: string,
  args: readonly string[],
  options: RunToolOptions,
): Promise<string> {
  const outcome = await spawnWithTimeout(command, args, {
    cwd: options.cwd,
    timeoutMs: options.timeoutMs,
    ...(options.env ? { env: options.env } : {}),
  });
  switch (outcome.kind) {
    case 'ok':
      return outcome.stdout;
    case 'not-found':
      throw new BotError('render_failed', `${command} is not on PATH; ${options.installHint}`, {
        cause: outcome.error,
      });
    case 'spawn-error':
      throw new BotError('render_failed', `${command} failed to start: ${outcome.error.message}`, {
        cause: outcome.error,
      });
    case 'failed':
      throw new BotError(
        'render_failed',
        `${command} ${args[0] ?? ''} ${outcome.why}: ${outcome.stderr || '(no output)'}`,
        { detail: outcome.stderr || '(no output)' },
      );
  }
}

/**
 * True when `command` can be run: a path to an executable file, or a name found in an executable file on `PATH`
 * (what spawn would find), checked without running it.
 */
export function isExecutable(command: string, pathVariable = process.env.PATH ?? ''): boolean {
  const candidates = command.includes('/')
    ? [command]
    : pathVariable
        .split(delimiter)
        .filter((dir) => dir !== '')
        .map((dir) => join(dir, command));
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  });
}
