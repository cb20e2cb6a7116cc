/**
 * `/sync status [app]` — what is running and queued, for one application or all, and what waits for approval
 * (pending requests are not jobs yet: they are queued once approved).
 */

import { USAGE } from '../messages/help-blocks.js';
import { statusBlocks } from '../messages/status-blocks.js';
import { type CommandContext, ephemeral } from './command-context.js';
import { queueUnavailable } from './queue-unavailable.js';
import { tooManyArguments } from './too-many-arguments.js';
import { isKnownApplication, unknownApplicationBlocks } from './unknown-application.js';

export async function statusCommand(ctx: CommandContext): Promise<void> {
  if (ctx.args.length > 1) return ctx.ack(ephemeral(tooManyArguments(ctx.args.slice(1), USAGE.status)));
  const application = ctx.args[0];
  if (application !== undefined && !(await isKnownApplication(ctx.deps.catalog, application))) {
    return ctx.ack(ephemeral(unknownApplicationBlocks(ctx.deps.catalog, application, USAGE.status)));
  }
  await ctx.ack();
  try {
    const [jobs, pending] = await Promise.all([
      application ? ctx.deps.queue.applicationStatus(application) : ctx.deps.queue.allStatus(),
      ctx.deps.approvalFlow?.pendingApprovals?.(application) ?? [],
    ]);
    await ctx.respond(ephemeral(statusBlocks(jobs, application, Date.now(), pending)));
  } catch (err) {
    await queueUnavailable(ctx, err);
  }
}
