/**
 * `wavesync worker` — runs syncs from the queue (scale by adding processes); serves /healthz and /metrics on PORT.
 * Configured by environment only (README "Configuration").
 */
import type { Command } from 'commander';
import { runProcess } from '../../main/run-process.js';

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run syncs from the Redis queue (scale by adding processes); /healthz and /metrics on PORT')
    .action(async () => {
      process.exitCode = await runProcess('worker');
    });
}
