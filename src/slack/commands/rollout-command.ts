/**
 * `/sync <appset>` — roll an ApplicationSet out (src/app-of-apps/rollout-driver.ts): its generated Applications step
 * by step as its `strategy: RollingSync` says (without one, every Application at once, as Argo CD's AllAtOnce). The
 * request policy is checked for every Application the rollout will sync before anything is posted (a refusal names
 * the Application; nothing starts); Applications whose environment requires approval are marked, and each gets its
 * own approval request in the rollout's thread when its step reaches it. Then one header in the channel — the
 * rollout's thread, where every step and Application has its line — and the first step starts.
 */
import { randomUUID } from 'node:crypto';
import { textMessage } from '../messages/block.js';
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
import { rolloutHeaderBlocks } from '../messages/rollout-blocks.js';
import type { RolloutChain } from '../ports.js';
import { type CommandContext, ephemeral, initiatorOf } from './command-context.js';
import { requestRefusal } from './request-refusal.js';

export async function rolloutCommand(ctx: CommandContext, applicationSet: string): Promise<void> {
  const { command, deps } = ctx;
  const plan = deps.rollouts?.plan(applicationSet);
  if (!plan) return;
  const set = escapeMrkdwn(applicationSet);
  if (ctx.args.length > 0) {
    const problem = `A rollout takes no flags: \`/sync ${set}\` syncs the Applications of ApplicationSet ${set} step by step.`;
    return ctx.ack(
      ephemeral(commandErrorBlocks({ problem, hint: 'Sync one of them with `/sync <app> [flags]`.' })),
    );
  }
  const applications = plan.steps.flatMap((s) => s.applications);
  if (applications.length === 0) {
    const problem = `ApplicationSet ${set} has no Application that a step of its rollout selects: nothing to roll out.`;
    return ctx.ack(ephemeral(commandErrorBlocks({ problem })));
  }
  const initiator = initiatorOf(command);
  const operation = { prune: false, dryRun: false, syncOptions: [] };
  for (const application of applications) {
    const refusal = await requestRefusal(deps, {
      application,
      operation,
      initiator,
      channel: command.channel_id,
    });
    if (refusal) {
      return ctx.ack(
        ephemeral(
          textMessage(`Rollout of ${set} not started: *${escapeMrkdwn(application)}*: ${refusal.text}`),
        ),
      );
    }
  }
  // Slack re-sends a slow command: the same trigger starts one rollout.
  if (ctx.recent.claim(`rollout:${command.trigger_id}`)) return ctx.ack();
  const approval = applications.filter((a) => deps.approvals?.needsApproval?.(a) === true);
  await ctx.ack(
    ephemeral(
      textMessage(
        `Got it: rolling out ${set} in ${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'} (${applications.length} Applications). Follow it in the thread.`,
      ),
    ),
  );
  const header = rolloutHeaderBlocks({
    applicationSet,
    userId: initiator.userId,
    steps: plan.steps,
    approval,
    unassigned: plan.unassigned,
  });
  let ts: string | undefined;
  try {
    const posted = await ctx.client.chat.postMessage({
      channel: command.channel_id,
      text: header.text,
      blocks: header.blocks,
    });
    ts = posted.ts;
  } catch (err) {
    deps.logger?.warn({ err, applicationSet }, 'rollout header not posted');
  }
  if (!ts) {
    await ctx.respond(
      ephemeral(textMessage(`Rollout of ${set} not started: Slack did not take its header. Try again.`)),
    );
    return;
  }
  const chain: RolloutChain = {
    applicationSet,
    rolloutId: randomUUID(),
    target: { channel: command.channel_id, threadTs: ts },
    steps: plan.steps,
    approval,
    unassigned: plan.unassigned,
  };
  try {
    await deps.rollouts!.start(chain, initiator);
  } catch (err) {
    deps.logger?.warn({ err, applicationSet }, 'rollout not started');
    const why = err instanceof Error ? err.message : String(err);
    await ctx.client.chat
      .postMessage({
        channel: command.channel_id,
        thread_ts: ts,
        text: `❌ Rollout of ${set} not started: ${escapeMrkdwn(why)}`,
      })
      .catch(() => undefined);
  }
}
