/**
 * `wavesync health <file|dir>... [--resource-customizations DIR] [--config F] [--output text|json]` — the
 * health of each object in some manifests as wavesync computes it (src/cli/health-of-manifests.ts). No cluster,
 * Redis or Slack. Exit 0 when it ran, whatever the health; bad input → exit 2 with the error on stderr.
 */
import { type Command, Option } from 'commander';
import { type CommandIo, processIo, runAction } from '../command-io.js';
import type { HealthCommandOptions } from '../health-of-manifests.js';

export function registerHealthCommand(program: Command, io: CommandIo = processIo): void {
  program
    .command('health')
    .description(
      "print the health of each object in manifests as wavesync computes it (its checks and Argo CD's Lua scripts)",
    )
    .argument('<paths...>', 'manifest files or directories (e.g. objects saved with kubectl get -o yaml)')
    .option(
      '--resource-customizations <dir>',
      "Argo CD's resource_customizations folder: its built-in health scripts (<group>/<Kind>/health.lua)",
    )
    .option(
      '--config <file>',
      'wavesync.yaml whose health: settings apply (argocdCm overrides, builtInScripts)',
    )
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .action((paths: string[], options: HealthCommandOptions) =>
      runAction(io, async () => {
        const { printHealth } = await import('../health-of-manifests.js');
        await printHealth(paths, options, io);
      }),
    );
}
