/**
 * The `wavesync` command line. Each subcommand lives in its own file under `commands/` and registers itself on
 * the commander program here. Start-up imports only commander and the registrations: every command loads what it
 * needs when it runs, so `wavesync --help` starts in a fraction of a second (bench/cli-startup.bench.ts).
 * Errors and exit codes: src/cli/command-io.ts (0 ok, 1 operation failed, 2 usage or input error).
 */
import { Command, CommanderError } from 'commander';
import { ExitCode, errorReport, processIo } from './command-io.js';
import { registerBotCommand } from './commands/bot.js';
import { registerClusterSimCommand } from './commands/cluster-sim.js';
import { registerCompletionCommand } from './commands/completion.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerDiffCommand } from './commands/diff.js';
import { registerPlanCommand } from './commands/plan.js';
import { registerServeCommand } from './commands/serve.js';
import { registerSyncCommand } from './commands/sync.js';
import { registerWorkerCommand } from './commands/worker.js';
import { packageVersion } from './package-version.js';

/** Build the program with every subcommand registered. */
export function buildProgram(): Command {
  const program = new Command('wavesync')
    .description('Argo CD-faithful syncs (phases, waves, hooks) driven from Slack')
    .version(packageVersion(), '-V, --version', 'print the version of wavesync')
    .addHelpText(
      'after',
      '\nExit codes: 0 ok, 1 the operation failed, 2 usage or input error. Add --verbose for stack traces.',
    )
    .showHelpAfterError('(run with --help for usage)')
    // Usage errors (unknown option, missing argument) exit 2 instead of commander's 1: see main below.
    .exitOverride();
  registerClusterSimCommand(program);
  registerPlanCommand(program);
  registerSyncCommand(program);
  registerDiffCommand(program);
  registerServeCommand(program);
  registerBotCommand(program);
  registerWorkerCommand(program);
  registerDemoCommand(program);
  registerCompletionCommand(program);
  for (const command of program.commands) {
    command.option('--verbose', 'print the stack trace with an error (also: LOG_LEVEL=debug)');
  }
  return program;
}

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
