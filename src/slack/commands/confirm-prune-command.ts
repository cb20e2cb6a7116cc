/**
 * `/sync confirm-prune <app>` — confirm pruning of the application's `Prune=confirm` resources (Argo CD: the
 * `argocd.argoproj.io/deletion-approved` annotation, spec §4.7 step 2). A running sync whose wave waits for it goes
 * on within the engine's poll interval; a confirmation counts for operations started before it, so confirming
 * ahead of a sync does not pre-approve a later one. In an environment that requires approval only its approvers
 * may confirm; the confirmation is audited.
 */

import { textMessage } from '../messages/block.js';
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
import { USAGE } from '../messages/help-blocks.js';
import { type CommandContext, ephemeral, initiatorOf } from './command-context.js';
import { queueUnavailable } from './queue-unavailable.js';
import { tooManyArguments } from './too-many-arguments.js';
import { isKnownApplication, unknownApplicationBlocks } from './unknown-application.js';

export async function confirmPruneCommand(ctx: CommandContext): Promise<void> {
  const [application, ...extra] = ctx.args;
  const usage = USAGE.confirmPrune;
  if (application === undefined) {
    const problem = 'Which application? Name the one whose pruning you confirm.';
    return ctx.ack(ephemeral(commandErrorBlocks({ problem, usage })));
  }
  if (extra.length) return ctx.ack(ephemeral(tooManyArguments(extra, usage)));
  if (!(await isKnownApplication(ctx.deps.catalog, application))) {
    return ctx.ack(ephemeral(unknownApplicationBlocks(ctx.deps.catalog, application, usage)));
  }
  await ctx.ack();
  const by = initiatorOf(ctx.command);
  const app = escapeMrkdwn(application);
  try {
    const authorization = (await ctx.deps.approvalFlow?.authorizePruneConfirmation(
      application,
      by.userId,
      ctx.command.channel_id,
    )) ?? { allowed: true };
    if (!authorization.allowed) {
      await ctx.respond(ephemeral(commandErrorBlocks({ problem: authorization.reason, usage })));
      return;
    }
    const at = await ctx.deps.queue.confirmPrune(application, by);
    ctx.deps.logger?.info({ application, userId: by.userId, at }, 'pruning confirmed');
    await ctx.respond(
      ephemeral(
        textMessage(
          `✅ Pruning of ${app} confirmed at ${at.slice(11, 19)} UTC: a sync waiting for it prunes its Prune=confirm resources now.`,
        ),
      ),
    );
  } catch (err) {
    await queueUnavailable(ctx, err);
  }
}
