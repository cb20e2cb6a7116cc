/**
 * `/sync status [app]` — what is running and queued, for one application or all, and what waits for approval
 * (pending requests are not jobs yet: they are queued once approved). Only what the `read` permission lets the user
 * see from this channel: a named app refused is answered with the reason (ephemeral); the all-apps view leaves out
 * registered Applications the user may not read here.
 */

import { displayRevision } from '../../domain/index.js';
import type { Pin } from '../../promotion/index.js';
import { plainFallback, type SlackMessage, section, textMessage } from '../messages/block.js';
import { escapeMrkdwn } from '../messages/format.js';

import { USAGE } from '../messages/help-blocks.js';
import { statusBlocks } from '../messages/status-blocks.js';
import { type CommandContext, ephemeral } from './command-context.js';
import { readRefusal } from './history-command.js';
import { queueUnavailable } from './queue-unavailable.js';
import { tooManyArguments } from './too-many-arguments.js';
import { isKnownApplication, unknownApplicationBlocks } from './unknown-application.js';

export async function statusCommand(ctx: CommandContext): Promise<void> {
  if (ctx.args.length > 1) return ctx.ack(ephemeral(tooManyArguments(ctx.args.slice(1), USAGE.status)));
  const application = ctx.args[0];
  if (application !== undefined && !(await isKnownApplication(ctx.deps.catalog, application))) {
    return ctx.ack(ephemeral(unknownApplicationBlocks(ctx.deps.catalog, application, USAGE.status)));
  }
  const refusal = application === undefined ? undefined : await readRefusal(ctx, application);
  if (refusal) return ctx.ack(ephemeral(textMessage(`🚫 ${refusal}`)));
  await ctx.ack();
  try {
    const [jobs, pending, pin] = await Promise.all([
      application ? ctx.deps.queue.applicationStatus(application) : ctx.deps.queue.allStatus(),
      ctx.deps.approvalFlow?.pendingApprovals?.(application) ?? [],
      application ? ctx.deps.promotion?.store.pin(application) : undefined,
    ]);
    const readable = await readableApplications(ctx, [
      ...jobs.map((j) => j.application),
      ...pending.map((p) => p.application),
    ]);
    const status = statusBlocks(
      jobs.filter((j) => readable.has(j.application)),
      application,
      Date.now(),
      pending.filter((p) => readable.has(p.application)),
    );
    await ctx.respond(ephemeral(pin ? withPin(status, pin) : status));
  } catch (err) {
    await queueUnavailable(ctx, err);
  }
}

/**
 * Which of `applications` the user may read from this channel; an Application that is not registered (an App of
 * Apps child) is shown as its parent's line is.
 */
async function readableApplications(
  ctx: CommandContext,
  applications: readonly string[],
): Promise<Set<string>> {
  const names = [...new Set(applications)];
  const refused = await Promise.all(
    names.map(
      async (name) =>
        ctx.deps.catalog.describe(name) !== undefined && (await readRefusal(ctx, name)) !== undefined,
    ),
  );
  return new Set(names.filter((_, i) => !refused[i]));
}

/**
 * `📌 pinned at 3f9c2e1 by promotion from staging`: the Application is held at a promoted revision (drift
 * detection and self-heal keep it there until the next promotion or a person's sync).
 */
function withPin(status: SlackMessage, pin: Pin): SlackMessage {
  const line = `📌 pinned at \`${escapeMrkdwn(displayRevision(pin.revision))}\` by promotion from ${escapeMrkdwn(pin.from)} (pipeline ${escapeMrkdwn(pin.pipeline)}): drift detection and self-heal keep it there until the next promotion or a sync`;
  return { text: `${plainFallback(line)}\n${status.text}`, blocks: [section(line), ...status.blocks] };
}
