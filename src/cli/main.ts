/**
 * The `wavesync` command line. Each subcommand lives in its own file under `commands/` and registers itself on
 * the commander program here.
 */
import { Command } from 'commander';
import { registerClusterSimCommand } from './commands/cluster-sim.js';
import { registerPlanCommand } from './commands/plan.js';
import { registerSyncCommand } from './commands/sync.js';
import { registerWorkerCommand } from './commands/worker.js';

/** Build the program with every subcommand registered. */
export function buildProgram(): Command {
  const program = new Command('wavesync')
    .description('Argo CD-faithful syncs (phases, waves, hooks) driven from Slack')
    .version('0.1.0')
    .showHelpAfterError();
  registerClusterSimCommand(program);
  registerPlanCommand(program);
  registerSyncCommand(program);
  registerWorkerCommand(program);
  return program;
}

await buildProgram().parseAsync(process.argv);
