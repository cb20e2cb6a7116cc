/**
 * `/sync cancel <app> ["reason"]` — cancel the application's running sync, else its next queued one; the reason
 * (optional) is shown in the header and the thread and audited.
 */
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { USAGE } from '../messages/help-blocks.js';
import { cancelSync, MAX_CANCEL_REASON } from './cancel-sync.js';
import { type CommandContext, ephemeral, initiatorOf } from './command-context.js';
import { queueUnavailable } from './queue-unavailable.js';
import { isKnownApplication, unknownApplicationBlocks } from './unknown-application.js';

export async function cancelCommand(ctx: CommandContext): Promise<void> {
  const [application, ...words] = ctx.args;
  if (application === undefined) {
    return ctx.ack(
      ephemeral(
        commandErrorBlocks({ problem: 'Which application? Name the one to cancel.', usage: USAGE.cancel }),
      ),
    );
  }
  const reason = words.join(' ').trim();
  if (reason.length > MAX_CANCEL_REASON) {
    const problem = `The reason is ${reason.length} characters; keep it to ${MAX_CANCEL_REASON}.`;
    return ctx.ack(ephemeral(commandErrorBlocks({ problem, usage: USAGE.cancel })));
  }
  if (!(await isKnownApplication(ctx.deps.catalog, application))) {
    return ctx.ack(ephemeral(unknownApplicationBlocks(ctx.deps.catalog, application, USAGE.cancel)));
  }
  await ctx.ack();
  try {
    const [job] = await ctx.deps.queue.applicationStatus(application);
    await cancelSync(ctx.deps, ctx.client, ctx.respond, {
      application,
      job,
      by: initiatorOf(ctx.command),
      channel: ctx.command.channel_id,
      ...(reason ? { reason } : {}),
    });
  } catch (err) {
    await queueUnavailable(ctx, err);
  }
}
