/** `wavesync worker` — runs syncs from the Redis queue (scale by adding processes); /healthz and /metrics on PORT. */
import type { Command } from 'commander';
import { registerProcessCommand } from './process-command.js';

export function registerWorkerCommand(program: Command): void {
  registerProcessCommand(
    program,
    'worker',
    'run syncs from the Redis queue (scale by adding processes); /healthz and /metrics on PORT',
  );
}
