/**
 * `/sync diff <app> [--revision REV] [--prune]` — the live diff of a sync of `<app>`, ephemeral to the requester:
 * counts, the changed resources with their first changed fields, and the unified diff in code blocks (Secret
 * values masked by the engine). Who may see it: whoever may dry-run the Application (the approval flow's
 * `liveDiff` decides, in one place). Also what `/sync <app> --dry-run` shows next to its header.
 */
import { reasonForPeople, type SyncOperation } from '../../domain/index.js';
import { TimeSlice } from '../../engine/index.js';
import { textMessage } from '../messages/block.js';
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { fullDiffLayoutWork, liveDiffUnavailableBlock } from '../messages/diff-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
import { USAGE } from '../messages/help-blocks.js';
import { type CommandContext, ephemeral, initiatorOf } from './command-context.js';
import { localRevisionProblem } from './local-revision.js';
import { parseSyncArgs } from './parse-sync-args.js';
import { isKnownApplication, unknownApplicationBlocks } from './unknown-application.js';

/** Blocks an ephemeral reply may carry (Slack: 50 per message). */
const MAX_REPLY_BLOCKS = 50;

export async function diffCommand(ctx: CommandContext): Promise<void> {
  const [application, ...flags] = ctx.args;
  const usage = USAGE.diff;
  if (application === undefined || application.startsWith('-')) {
    return ctx.ack(ephemeral(commandErrorBlocks({ problem: 'Which application should I diff?', usage })));
  }
  const parsed = parseSyncArgs(flags);
  if (!parsed.ok) return ctx.ack(ephemeral(commandErrorBlocks({ ...parsed.problem, usage })));
  if (!(await isKnownApplication(ctx.deps.catalog, application))) {
    return ctx.ack(ephemeral(unknownApplicationBlocks(ctx.deps.catalog, application, usage)));
  }
  const noRevisions = localRevisionProblem(ctx.deps.catalog, application, parsed.operation);
  if (noRevisions) return ctx.ack(ephemeral(commandErrorBlocks({ problem: noRevisions, usage })));
  await ctx.ack(ephemeral(textMessage(`Comparing *${escapeMrkdwn(application)}* with the cluster…`)));
  await ctx.respond(ephemeral(await liveDiffReply(ctx, application, { ...parsed.operation, dryRun: true })));
}

/** The ephemeral reply with the diff of `application`, or why there is none (refused, cluster unreadable). */
export async function liveDiffReply(
  ctx: Pick<CommandContext, 'command' | 'deps'>,
  application: string,
  operation: SyncOperation,
) {
  const flow = ctx.deps.approvalFlow;
  if (!flow?.liveDiff) {
    return commandErrorBlocks({ problem: 'Diffs are not available: this bot has no cluster access.' });
  }
  try {
    const result = await flow.liveDiff({
      application,
      operation,
      initiator: initiatorOf(ctx.command),
      channel: ctx.command.channel_id,
    });
    if (!result.allowed) return commandErrorBlocks({ problem: result.reason });
    const { diff, diffSummary, liveError } = result.preview;
    if (!diff)
      return textMessage(
        `No diff for *${escapeMrkdwn(application)}*.`,
        liveDiffUnavailableBlock(liveError ?? 'no cluster'),
      );
    // In time slices: at 50,000 resources the layout reads every one (the summary is the preview's).
    const { blocks } = await new TimeSlice().run(
      fullDiffLayoutWork(diff, {
        maxBlocks: MAX_REPLY_BLOCKS,
        ...(diffSummary ? { summary: diffSummary } : {}),
      }),
    );
    return { text: `Diff of ${application}`, blocks };
  } catch (err) {
    ctx.deps.logger?.warn({ application, err }, 'could not compute a diff');
    const reason = reasonForPeople(err);
    return commandErrorBlocks({
      problem: `Could not diff *${escapeMrkdwn(application)}*: ${escapeMrkdwn(reason)}`,
    });
  }
}
