/**
 * `/sync history <app>` — the last ten syncs of an application, newest first, for whoever the `read` permission
 * allows from this channel (the one authorization, permissions.ts; a refusal is the ephemeral ack).
 */
import { textMessage } from '../messages/block.js';
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { USAGE } from '../messages/help-blocks.js';
import { historyBlocks } from '../messages/history-blocks.js';
import { authorizationOf } from './authorize.js';
import { type CommandContext, ephemeral } from './command-context.js';
import { queueUnavailable } from './queue-unavailable.js';
import { tooManyArguments } from './too-many-arguments.js';
import { isKnownApplication, unknownApplicationBlocks } from './unknown-application.js';

const HISTORY_LIMIT = 10;

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
  const refusal = await readRefusal(ctx, application);
  if (refusal) return ctx.ack(ephemeral(textMessage(`🚫 ${refusal}`)));
  await ctx.ack();
  try {
    await ctx.respond(
      ephemeral(historyBlocks(application, await ctx.deps.queue.history(application, HISTORY_LIMIT))),
    );
  } catch (err) {
    await queueUnavailable(ctx, err);
  }
}

/** Why the user of `ctx` may not read `application`'s syncs from this channel (`read` permission), or undefined. */
export async function readRefusal(ctx: CommandContext, application: string): Promise<string | undefined> {
  const decision = await authorizationOf(ctx.deps, {
    action: 'read',
    application,
    userId: ctx.command.user_id,
    channel: ctx.command.channel_id,
  });
  return decision.allowed ? undefined : decision.reason;
}
