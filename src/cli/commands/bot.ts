/** `wavesync bot` — the Slack app only (`/sync`, buttons, approvals; enqueues); POST /slack/events, /healthz, /metrics. */
import type { Command } from 'commander';
import { registerProcessCommand } from './process-command.js';

export function registerBotCommand(program: Command): void {
  registerProcessCommand(
    program,
    'bot',
    'run the Slack app only (/sync, buttons, approvals; enqueues syncs): POST /slack/events, /healthz, /metrics on PORT',
  );
}
