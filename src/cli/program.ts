/**
 * The `wavesync` commander program: every subcommand registered, and commander's own usage errors (unknown
 * command or option, missing or invalid argument) printed in the one error style of src/cli/command-io.ts:
 *
 *   error: unknown command 'bogus' (wavesync): the commands are cluster-sim, plan, sync, …; see wavesync --help
 *
 * one line on stderr, with commander's "Did you mean" as the fix when it has one. Start-up imports only commander
 * and the registrations: every command loads what it needs when it runs, so `wavesync --help` stays fast.
 */
import { Command } from 'commander';
import { packageVersion } from '../package-info.js';
import { registerActionCommand } from './commands/action.js';
import { registerAppsetCommand } from './commands/appset.js';
import { registerBotCommand } from './commands/bot.js';
import { registerClusterSimCommand } from './commands/cluster-sim.js';
import { registerCompletionCommand } from './commands/completion.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerDiffCommand } from './commands/diff.js';
import { registerHealthCommand } from './commands/health.js';
import { registerPlanCommand } from './commands/plan.js';
import { registerServeCommand } from './commands/serve.js';
import { registerSyncCommand } from './commands/sync.js';
import { registerWorkerCommand } from './commands/worker.js';

/** Build the program with every subcommand registered; usage errors go to `writeErr` (default stderr). */
export function buildProgram(
  writeErr: (text: string) => void = (text) => process.stderr.write(text),
): Command {
  const program = new Command('wavesync')
    .description('Argo CD-faithful syncs (phases, waves, hooks) driven from Slack')
    .version(packageVersion(), '-V, --version', 'print the version of wavesync')
    .addHelpText(
      'after',
      '\nExit codes: 0 ok, 1 the operation failed, 2 usage or input error. Add --verbose for stack traces.',
    )
    // Usage errors (unknown option, missing argument) exit 2 instead of commander's 1: see main.ts.
    .exitOverride();
  registerClusterSimCommand(program);
  registerPlanCommand(program);
  registerSyncCommand(program);
  registerDiffCommand(program);
  registerHealthCommand(program);
  registerActionCommand(program);
  registerAppsetCommand(program);
  registerServeCommand(program);
  registerBotCommand(program);
  registerWorkerCommand(program);
  registerDemoCommand(program);
  registerCompletionCommand(program);
  const commandNames = program.commands.map((command) => command.name());
  program.configureOutput({
    writeErr,
    outputError: (text, write) => write(usageErrorLine(text, 'wavesync', commandNames)),
  });
  for (const command of program.commands) {
    command.option('--verbose', 'print the stack trace with an error (also: LOG_LEVEL=debug)');
    const where = `wavesync ${command.name()}`;
    command.configureOutput({ writeErr, outputError: (text, write) => write(usageErrorLine(text, where)) });
  }
  return program;
}

/**
 * Commander's usage error (`error: unknown option '--foo'` and maybe a `(Did you mean --force?)` line) as one
 * `error: <what> (<where>): <how to fix>` line. `commandNames` is given for the program itself: an unknown
 * command with no close match lists them.
 */
export function usageErrorLine(commanderText: string, where: string, commandNames?: string[]): string {
  const lines = commanderText.trim().split('\n');
  let what = (lines[0] ?? '').replace(/^error: /, '').replace(/\.$/, '');
  const choices = /^(.*?)\. Allowed choices are (.+)$/.exec(what);
  if (choices?.[1] !== undefined) what = choices[1];
  const suggestion = /\(Did you mean (.+)\?\)/.exec(lines.slice(1).join(' '))?.[1];
  let fix: string;
  if (suggestion !== undefined) fix = `did you mean ${suggestion}?`;
  else if (choices?.[2] !== undefined) fix = `use one of ${choices[2]}`;
  else if (commandNames !== undefined && what.startsWith('unknown command')) {
    fix = `the commands are ${commandNames.join(', ')}; see wavesync --help`;
  } else fix = `see ${where} --help`;
  return `error: ${what} (${where}): ${fix}\n`;
}
