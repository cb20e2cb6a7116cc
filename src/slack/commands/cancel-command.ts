/** `/sync cancel <app>` — cancel the application's running sync, else its next queued one. */
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { USAGE } from '../messages/help-blocks.js';
import { cancelSync } from './cancel-sync.js';
import { type CommandContext, ephemeral, initiatorOf } from './command-context.js';
import { queueUnavailable } from './queue-unavailable.js';
import { tooManyArguments } from './too-many-arguments.js';
import { isKnownApplication, unknownApplicationBlocks } from './unknown-application.js';

export async function cancelCommand(ctx: CommandContext): Promise<void> {
  const [application, ...extra] = ctx.args;
  if (application === undefined) {
    return ctx.ack(
      ephemeral(
        commandErrorBlocks({ problem: 'Which application? Name the one to cancel.', usage: USAGE.cancel }),
      ),
    );
  }
  if (extra.length) return ctx.ack(ephemeral(tooManyArguments(extra, USAGE.cancel)));
  if (!(await isKnownApplication(ctx.deps.catalog, application))) {
    return ctx.ack(ephemeral(unknownApplicationBlocks(ctx.deps.catalog, application, USAGE.cancel)));
  }
  await ctx.ack();
  try {
    await ctx.respond(
      ephemeral(await cancelSync(ctx.deps, ctx.client, { application, by: initiatorOf(ctx.command) })),
    );
  } catch (err) {
    await queueUnavailable(ctx, err);
  }
}
