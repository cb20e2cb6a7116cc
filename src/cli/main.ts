/**
 * The `wavesync` command line. Each subcommand lives in its own file under `commands/` and registers itself on
 * the commander program here.
 */
import { Command } from 'commander';
import { registerBotCommand } from './commands/bot.js';
import { registerClusterSimCommand } from './commands/cluster-sim.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerDiffCommand } from './commands/diff.js';
import { registerPlanCommand } from './commands/plan.js';
import { registerServeCommand } from './commands/serve.js';
import { registerSyncCommand } from './commands/sync.js';
import { registerWorkerCommand } from './commands/worker.js';
import { userFacingMessage } from './user-facing-error.js';

/** Build the program with every subcommand registered. */
export function buildProgram(): Command {
  const program = new Command('wavesync')
    .description('Argo CD-faithful syncs (phases, waves, hooks) driven from Slack')
    .version('0.1.0')
    .showHelpAfterError();
  registerClusterSimCommand(program);
  registerPlanCommand(program);
  registerSyncCommand(program);
  registerDiffCommand(program);
  registerServeCommand(program);
  registerBotCommand(program);
  registerWorkerCommand(program);
  registerDemoCommand(program);
  return program;
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  // An error the user can act on is one line and exit 1 (process.exit: whatever the command opened is dropped,
  // as an uncaught exception would); a bug keeps its stack trace.
  const message = userFacingMessage(error);
  if (message === undefined) throw error;
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}
