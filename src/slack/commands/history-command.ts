/** `/sync history <app>` — the last ten syncs of an application, newest first. */
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { USAGE } from '../messages/help-blocks.js';
import { historyBlocks } from '../messages/history-blocks.js';
import { type CommandContext, ephemeral } from './command-context.js';
import { queueUnavailable } from './queue-unavailable.js';
import { tooManyArguments } from './too-many-arguments.js';
import { isKnownApplication, unknownApplicationBlocks } from './unknown-application.js';

export const HISTORY_LIMIT = 10;

export async function historyCommand(ctx: CommandContext): Promise<void> {
  const [application, ...extra] = ctx.args;
  if (application === undefined) {
    return ctx.ack(
      ephemeral(commandErrorBlocks({ problem: 'Which application? Name one.', usage: USAGE.history })),
    );
  }
  if (extra.length) return ctx.ack(ephemeral(tooManyArguments(extra, USAGE.history)));
  if (!(await isKnownApplication(ctx.deps.catalog, application))) {
    return ctx.ack(ephemeral(unknownApplicationBlocks(ctx.deps.catalog, application, USAGE.history)));
  }
  await ctx.ack();
  try {
    await ctx.respond(
      ephemeral(historyBlocks(application, await ctx.deps.queue.history(application, HISTORY_LIMIT))),
    );
  } catch (err) {
    await queueUnavailable(ctx, err);
  }
}
