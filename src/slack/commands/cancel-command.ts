/**
 * `/sync cancel <app> ["reason"]` — cancel the application's running sync, else its next queued one, else withdraw
 * its request waiting for approval; the reason (optional) is shown in the header and the thread and audited. Who
 * may: the `cancel` permission (the one authorization; the requester always may cancel their own).
 */
import type { WithdrawResult } from '../../environments/index.js';
import { textMessage } from '../messages/block.js';
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
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
    const withdraw = ctx.deps.approvalFlow?.withdraw;
    if (!job && withdraw) {
      const by = {
        userId: ctx.command.user_id,
        channel: ctx.command.channel_id,
        ...(reason ? { reason } : {}),
      };
      const withdrawn = await withdraw({ application, ...by });
      if (withdrawn.kind !== 'none')
        return void (await ctx.respond(ephemeral(withdrawnReply(application, withdrawn))));
    }
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

function withdrawnReply(application: string, result: Exclude<WithdrawResult, { kind: 'none' }>) {
  if (result.kind === 'refused') return textMessage(`🚫 ${result.reason}`);
  return textMessage(
    `Withdrew the request to sync *${escapeMrkdwn(application)}* that was waiting for approval; it will not run.`,
  );
}
