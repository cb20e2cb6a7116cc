/**
 * The `wavesync` command line. Each subcommand lives in its own file under `commands/` and registers itself on
 * the commander program of program.ts. Start-up imports only commander and the registrations: every command loads what it
 * needs when it runs, so `wavesync --help` starts in a fraction of a second (bench/cli-startup.bench.ts).
 * Errors and exit codes: src/cli/command-io.ts (0 ok, 1 operation failed, 2 usage or input error).
 */
import { CommanderError } from 'commander';
import { ExitCode, errorReport, processIo } from './command-io.js';
import { buildProgram } from './program.js';

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  // Commander has printed its own message (and help/version are not errors); everything else is reported in
  // the one error style, then process.exit: whatever the command opened is dropped, as an uncaught exception
  // would drop it.
  if (error instanceof CommanderError) {
    const done = ['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(error.code);
    process.exit(done ? ExitCode.ok : ExitCode.usage);
  }
  const report = errorReport(error);
  processIo.stderr(report.text);
  process.exit(report.exitCode);
}
