/** `/sync apps` — the Applications this bot can sync. */
import { appsListBlocks } from '../messages/apps-list-blocks.js';
import { USAGE } from '../messages/help-blocks.js';
import type { ApplicationSummary } from '../ports.js';
import { type CommandContext, ephemeral } from './command-context.js';
import { tooManyArguments } from './too-many-arguments.js';

export async function appsCommand(ctx: CommandContext): Promise<void> {
  if (ctx.args.length) return ctx.ack(ephemeral(tooManyArguments(ctx.args, USAGE.apps)));
  const { catalog } = ctx.deps;
  const apps = catalog.names().flatMap((name): ApplicationSummary[] => {
    const summary = catalog.describe(name);
    return summary ? [summary] : [];
  });
  await ctx.ack(ephemeral(appsListBlocks(apps)));
}
