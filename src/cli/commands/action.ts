/**
 * `wavesync action <file> [action] [--list] [--param k=v]... [--resource-customizations DIR] [--config F]
 * [--output yaml|json]` — what an Argo CD resource action would do to the object in a file
 * (src/cli/run-resource-action.ts). No cluster, Redis or Slack. Exit 0 when it ran; bad input or an action that is
 * not offered → 2; a failing script → 1.
 */
import { type Command, Option } from 'commander';
import { type CommandIo, processIo, runAction } from '../command-io.js';
import type { ActionCommandOptions } from '../run-resource-action.js';

export function registerActionCommand(program: Command, io: CommandIo = processIo): void {
  program
    .command('action')
    .description(
      'print what an Argo CD resource action would do to the object in a file (the objects it would patch or create), or with --list what it offers',
    )
    .argument('<file>', 'a file with one object (e.g. saved with kubectl get <kind> <name> -o yaml)')
    .argument('[action]', 'the action to run (e.g. restart); omit with --list')
    .option('--list', 'print the actions discovery offers for the object (disabled ones included)')
    .option(
      '--param <name=value>',
      'an action parameter (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option(
      '--resource-customizations <dir>',
      "Argo CD's resource_customizations folder: <group>/<Kind>/actions/discovery.lua and <action>/action.lua",
    )
    .option(
      '--config <file>',
      'wavesync.yaml whose health: settings apply (argocdCm actions, builtInScripts)',
    )
    .addOption(new Option('-o, --output <format>', 'output format').choices(['yaml', 'json']).default('yaml'))
    .action((file: string, action: string | undefined, options: ActionCommandOptions) =>
      runAction(io, async () => {
        const { printResourceAction } = await import('../run-resource-action.js');
        await printResourceAction(file, action, options, io);
      }),
    );
}
