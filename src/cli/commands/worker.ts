/**
 * `wavesync worker` — runs syncs from the queue (scale by adding processes); serves /healthz and /metrics on PORT.
 * Configured by environment only (README "Configuration").
 */
import type { Command } from 'commander';

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run syncs from the Redis queue (scale by adding processes); /healthz and /metrics on PORT')
    .action(async () => {
      // Loaded on use, so `wavesync plan` and `--help` do not pay for Bolt, BullMQ and client-node.
      const { runProcess } = await import('../../main/run-process.js');
      process.exitCode = await runProcess('worker');
    });
}
