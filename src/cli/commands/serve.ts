/** `wavesync serve` — the bot and a worker in one process: the default for small teams. */
import type { Command } from 'commander';
import { registerProcessCommand } from './process-command.js';

export function registerServeCommand(program: Command): void {
  registerProcessCommand(
    program,
    'serve',
    'run the Slack bot and a worker in one process (the default for small teams): /slack/events, /healthz, /metrics on PORT',
  );
}
