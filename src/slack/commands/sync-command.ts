/**
 * `/sync` — the one slash command. Routes on the first word: `help`, `apps`, `status`, `cancel`, `history`, `rollback`, `audit`,
 * `confirm-prune`, `delete`, `diff`, `promote`, `pipeline`, `resources`, `action`, `logs`, `events`,
 * otherwise it is an application name (`/sync <app> [flags]`), or an ApplicationSet's (`/sync <appset>`: its rollout). The subcommand words are reserved: an
 * Application named `status` (or `help`, `apps`, `cancel`, `history`) cannot be synced from Slack.
 */
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
import { USAGE } from '../messages/help-blocks.js';
import { appsCommand } from './apps-command.js';
import { auditSubcommand } from './audit-command.js';
import { cancelCommand } from './cancel-command.js';
import { type CommandContext, ephemeral } from './command-context.js';
import { confirmPruneCommand } from './confirm-prune-command.js';
import { deleteCommand } from './delete-command.js';
import { diffCommand } from './diff-command.js';
import { helpCommand } from './help-command.js';
import { historyCommand } from './history-command.js';
import { eventsCommand, logsCommand } from './logs-events-command.js';
import { tokenize } from './parse-sync-args.js';
import { pipelineCommand } from './pipeline-command.js';
import { promoteCommand } from './promote-command.js';
import { actionCommand, resourcesCommand } from './resources-command.js';
import { rollbackCommand } from './rollback-command.js';
import { rolloutCommand } from './rollout-command.js';
import { startSyncCommand } from './start-sync-command.js';
import { statusCommand } from './status-command.js';
import { isKnownApplication, unknownApplicationBlocks } from './unknown-application.js';

const SUBCOMMANDS: Readonly<Record<string, (ctx: CommandContext) => Promise<void>>> = {
  help: helpCommand,
  apps: appsCommand,
  status: statusCommand,
  cancel: cancelCommand,
  history: historyCommand,
  rollback: rollbackCommand,
  audit: auditSubcommand,
  delete: deleteCommand,
  diff: diffCommand,
  'confirm-prune': confirmPruneCommand,
  promote: promoteCommand,
  pipeline: pipelineCommand,
  resources: resourcesCommand,
  action: actionCommand,
  logs: logsCommand,
  events: eventsCommand,
};

export async function handleSyncCommand(ctx: Omit<CommandContext, 'args'>): Promise<void> {
  const [first, ...args] = tokenize(ctx.command.text);
  if (first === undefined) {
    const problem = {
      problem: 'Which application should I sync?',
      hint: '`/sync apps` lists them, `/sync help` shows everything.',
    };
    return ctx.ack(ephemeral(commandErrorBlocks({ ...problem, usage: USAGE.sync })));
  }
  const subcommand = SUBCOMMANDS[first.toLowerCase()];
  if (subcommand) return subcommand({ ...ctx, args });
  if (first.startsWith('-')) {
    const problem = `Name the application first, then flags: \`/sync guestbook ${escapeMrkdwn(first)}\`.`;
    return ctx.ack(ephemeral(commandErrorBlocks({ problem, usage: USAGE.sync })));
  }
  // An ApplicationSet's name rolls it out, unless an Application has that name (the Application is synced).
  const rollout = () => rolloutCommand({ ...ctx, args }, first);
  if (!ctx.deps.catalog.describe(first) && ctx.deps.rollouts?.plan(first)) return rollout();
  if (!(await isKnownApplication(ctx.deps.catalog, first))) {
    if (ctx.deps.rollouts?.plan(first)) return rollout();
    return ctx.ack(ephemeral(unknownApplicationBlocks(ctx.deps.catalog, first, USAGE.sync)));
  }
  return startSyncCommand({ ...ctx, args }, first);
}
