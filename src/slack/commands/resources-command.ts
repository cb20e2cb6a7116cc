/**
 * `/sync resources <app>` — the Application's live resources as a tree with health and action buttons
 * (resource-tree-blocks.ts), for whoever the `view` permission allows from this channel; only the user sees it.
 * `/sync action <app> <action> <Kind/name> [--param name=value]...` — runs a resource action
 * (resource-action-run.ts).
 */
import { ResourceActionError } from '../../resource-actions/index.js';
import { textMessage } from '../messages/block.js';
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
import { USAGE } from '../messages/help-blocks.js';
import { resourceTreeBlocks } from '../messages/resource-tree-blocks.js';
import { authorizationOf } from './authorize.js';
import { type CommandContext, ephemeral } from './command-context.js';
import { runResourceActionFromSlack } from './resource-action-run.js';
import { tooManyArguments } from './too-many-arguments.js';
import { isKnownApplication, unknownApplicationBlocks } from './unknown-application.js';

export async function resourcesCommand(ctx: CommandContext): Promise<void> {
  const [application, ...extra] = ctx.args;
  if (application === undefined) {
    return ctx.ack(
      ephemeral(commandErrorBlocks({ problem: 'Which application? Name one.', usage: USAGE.resources })),
    );
  }
  if (extra.length) return ctx.ack(ephemeral(tooManyArguments(extra, USAGE.resources)));
  if (!(await isKnownApplication(ctx.deps.catalog, application))) {
    return ctx.ack(ephemeral(unknownApplicationBlocks(ctx.deps.catalog, application, USAGE.resources)));
  }
  const views = ctx.deps.resourceViews;
  if (!views)
    return ctx.ack(
      ephemeral(textMessage('Resource views are not available: this bot has no cluster access.')),
    );
  const decision = await authorizationOf(ctx.deps, {
    action: 'view',
    application,
    userId: ctx.command.user_id,
    channel: ctx.command.channel_id,
  });
  if (!decision.allowed) return ctx.ack(ephemeral(textMessage(`🚫 ${decision.reason}`)));
  await ctx.ack();
  try {
    await ctx.respond(ephemeral(resourceTreeBlocks(application, await views.tree(application))));
  } catch (err) {
    ctx.deps.logger?.warn({ err, application }, 'resource tree failed');
    const message = err instanceof Error ? err.message : String(err);
    await ctx.respond(
      ephemeral(
        textMessage(
          `⚠️ Could not read the resources of ${escapeMrkdwn(application)}: ${escapeMrkdwn(message)}`,
        ),
      ),
    );
  }
}

/** `--param name=value` pairs after the action and target; anything else is a usage problem. */
function parseActionArgs(args: readonly string[]): { params: Record<string, string> } | { problem: string } {
  const params: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const inline = arg.startsWith('--param=') ? arg.slice('--param='.length) : undefined;
    const pair = inline ?? (arg === '--param' ? args[++i] : undefined);
    if (pair === undefined)
      return { problem: `Unexpected \`${escapeMrkdwn(arg)}\`: only \`--param name=value\` may follow.` };
    const eq = pair.indexOf('=');
    if (eq <= 0) return { problem: `\`--param ${escapeMrkdwn(pair)}\`: expected name=value.` };
    params[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return { params };
}

export async function actionCommand(ctx: CommandContext): Promise<void> {
  const [application, action, target, ...rest] = ctx.args;
  if (application === undefined || action === undefined || target === undefined) {
    const problem =
      'Name the application, the action and the resource: `/sync action guestbook restart Deployment/web`.';
    return ctx.ack(ephemeral(commandErrorBlocks({ problem, usage: USAGE.action })));
  }
  if (!(await isKnownApplication(ctx.deps.catalog, application))) {
    return ctx.ack(ephemeral(unknownApplicationBlocks(ctx.deps.catalog, application, USAGE.action)));
  }
  const parsed = parseActionArgs(rest);
  if ('problem' in parsed)
    return ctx.ack(ephemeral(commandErrorBlocks({ problem: parsed.problem, usage: USAGE.action })));
  await ctx.ack();
  try {
    await runResourceActionFromSlack(ctx.deps, ctx.respond, {
      application,
      action,
      target,
      params: parsed.params,
      userId: ctx.command.user_id,
      userName: ctx.command.user_name,
      channel: ctx.command.channel_id,
      requestKey: `action:${ctx.command.trigger_id}`,
    });
  } catch (err) {
    if (!(err instanceof ResourceActionError))
      ctx.deps.logger?.warn({ err, application }, 'resource action failed');
    throw err;
  }
}
