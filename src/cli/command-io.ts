/**
 * Where CLI commands write, and the one way every command reports an error (README "Commands"):
 *
 *   error: <what> (<where>): <how to fix>
 *
 * on stderr, one line (a tool's raw output indented below it), nothing on stdout, and the exit code: 0 ok, 1 the
 * operation failed (a sync that did not succeed, a cluster or Slack that cannot be reached, a failed render), 2
 * usage or input error (an unknown option, a bad manifest, a missing setting, an unknown Application). A stack
 * trace follows only with `--verbose` or `LOG_LEVEL=debug`. This module imports nothing at start-up, so `--help`
 * stays fast.
 */
import type { BotError, BotErrorCode } from '../domain/index.js';

/** Where a command writes; tests pass their own. */
export interface CommandIo {
  stdout(text: string): void;
  stderr(text: string): void;
  setExitCode(code: number): void;
}

/**
 * stdout that survives its reader going away (`wavesync sync … | head -2`): after EPIPE (or any write error) it
 * stops printing, and the command goes on to its end — output failing must never leave a sync half-applied.
 */
function surviving(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on('error', () => {
    closed = true;
  });
  return (text) => {
    if (closed || stream.destroyed || !stream.writable) return;
    stream.write(text);
  };
}

let stdout: ((text: string) => void) | undefined;

/** The process's stdout (surviving EPIPE) and stderr, and process.exitCode. */
export const processIo: CommandIo = {
  stdout: (text) => {
    stdout ??= surviving(process.stdout);
    stdout(text);
  },
  stderr: (text) => process.stderr.write(text),
  setExitCode: (code) => {
    process.exitCode = code;
  },
};

/** Exit codes of every command (README "Commands": exit codes). */
export const ExitCode = { ok: 0, failed: 1, usage: 2 } as const;

/** BotError codes that mean the input was wrong (exit 2); every other code is a failed operation (exit 1). */
const INPUT_ERRORS: readonly BotErrorCode[] = [
  'invalid_manifest',
  'invalid_config',
  'application_not_found',
  'invalid_command',
  'revision_not_found',
];

/** True with `--verbose` anywhere on the command line or LOG_LEVEL=debug|trace: errors keep their stack trace. */
export function isVerbose(argv: readonly string[] = process.argv, env = process.env): boolean {
  return argv.includes('--verbose') || env.LOG_LEVEL === 'debug' || env.LOG_LEVEL === 'trace';
}

/** What an error prints and the exit code it sets. */
export interface ErrorReport {
  /** `error: …` lines ending with a newline. */
  text: string;
  exitCode: number;
}

/**
 * The report of any error a command throws: a BotError's message (a ManifestError as `problem (file:line)`) and
 * its `fix`, a failed system call's message (EADDRINUSE, ENOENT), else an unexpected error named as a bug.
 * `verbose` appends the stack trace.
 */
export function errorReport(error: unknown, verbose = isVerbose()): ErrorReport {
  const stack = verbose && error instanceof Error && error.stack ? `${error.stack}\n` : '';
  if (isBotError(error)) {
    const line = `error: ${oneLine(whatAndWhere(error), error.detail)}${error.fix ? `: ${error.fix}` : ''}\n`;
    // Warnings that belong with the error (an Application's field warnings when its render failed) come first; a
    // tool's raw output follows the one-line cause, indented.
    const { warnings, detail } = error as BotError & { warnings?: unknown };
    const before = Array.isArray(warnings) ? warnings.map((w) => `${String(w)}\n`).join('') : '';
    const after =
      typeof detail === 'string' && detail.trim() !== ''
        ? detail
            .trim()
            .split('\n')
            .map((l) => `    ${l}\n`)
            .join('')
        : '';
    return {
      text: before + line + after + stack,
      exitCode: INPUT_ERRORS.includes(error.code) ? ExitCode.usage : ExitCode.failed,
    };
  }
  if (error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string') {
    return { text: `error: ${error.message}\n${stack}`, exitCode: ExitCode.failed };
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const hint = verbose ? '' : ': rerun with --verbose for the stack trace, and report it as a bug';
  return { text: `error: unexpected ${message}${hint}\n${stack}`, exitCode: ExitCode.failed };
}

/** Runs a command's work; any error is printed as {@link errorReport} says and sets the exit code. */
export async function runAction(io: CommandIo, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    const report = errorReport(error);
    io.stderr(report.text);
    io.setExitCode(report.exitCode);
  }
}

/** `warning: <message> (<file>:<line>)` for a silent Argo CD fallback; line 0 means a flag, not a file. */
export function warningLine(warning: { file: string; line: number; message: string }): string {
  const where = warning.line > 0 ? `${warning.file}:${warning.line}` : warning.file;
  return `warning: ${warning.message} (${where})\n`;
}

// Duck-typed (name and code) so that this module imports no runtime code from domain/ at start-up.
function isBotError(error: unknown): error is BotError {
  return (
    error instanceof Error &&
    (error.name === 'BotError' || error.name === 'ManifestError') &&
    typeof (error as BotError).code === 'string'
  );
}

/** The message without the tool output it ends with (printed indented below it instead). */
function oneLine(message: string, detail: string | undefined): string {
  if (detail === undefined || detail.trim() === '') return message;
  const at = message.lastIndexOf(`: ${detail}`);
  return at >= 0 ? message.slice(0, at) + message.slice(at + detail.length + 2) : message;
}

/** `problem (file:line)` for a ManifestError, else the message. */
function whatAndWhere(error: BotError): string {
  const { file, line, problem } = error as BotError & { file?: string; line?: number; problem?: string };
  if (file === undefined || problem === undefined) return error.message;
  return `${problem} (${file}${line === undefined ? '' : `:${line}`})`;
}
