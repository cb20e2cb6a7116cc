/**
 * The long-running process commands (`serve`, `bot`, `worker`) share one shape: configured by environment only
 * (README "Configuration"), they run until SIGTERM/SIGINT and shut down gracefully.
 */
import type { Command } from 'commander';
import type { ProcessRole } from '../../main/start-wavesync.js';

export function registerProcessCommand(program: Command, role: ProcessRole, description: string): void {
  program
    .command(role)
    .description(description)
    .action(async () => {
      // Loaded on use, so `wavesync plan` and `--help` do not pay for Bolt, BullMQ and client-node.
      const { runProcess } = await import('../run-process.js');
      const code = await runProcess(role);
      // Everything is closed or abandoned to stall recovery by now; do not wait for stray handles.
      process.exit(code);
    });
}
