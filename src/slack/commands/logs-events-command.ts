/**
 * `/sync logs <app> [Kind/name] [-c container] [--tail N] [--previous]` and `/sync events <app> [Kind/name]` — for
 * whoever the `view` permission allows from this channel (a refusal only the user sees). The logs are shared as a
 * snippet in a thread of the channel (logs-snippet.ts: the Application's latest sync thread here, else a new one),
 * redacted and bounded; the events are shown to the user only.
 */
import { MAX_TAIL } from '../../resource-actions/index.js';
import { textMessage } from '../messages/block.js';
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';
import { USAGE } from '../messages/help-blocks.js';
import { eventsBlocks, logsBlocks } from '../messages/logs-events-blocks.js';
import { authorizationOf } from './authorize.js';
import { type CommandContext, ephemeral } from './command-context.js';
import { shareLogs } from './logs-snippet.js';
import { isKnownApplication, unknownApplicationBlocks } from './unknown-application.js';

interface LogsArgs {
  target?: string;
  container?: string;
  tail?: number;
  previous?: boolean;
}

function parseLogsArgs(args: readonly string[]): LogsArgs | { problem: string } {
  const out: LogsArgs = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = () => inline ?? args[++i];
    if (flag === '-c' || flag === '--container') {
      const name = value();
      if (!name) return { problem: `${flag} needs a container name.` };
      out.container = name;
    } else if (flag === '--tail') {
      const text = value();
      const n = Number(text);
      if (!text || !Number.isInteger(n) || n < 1 || n > MAX_TAIL)
        return { problem: `--tail takes a number of lines from 1 to ${MAX_TAIL}.` };
      out.tail = n;
    } else if (flag === '--previous' || flag === '-p') {
      out.previous = true;
    } else if (!arg.startsWith('-') && out.target === undefined) {
      out.target = arg;
    } else {
      return { problem: `Unexpected \`${escapeMrkdwn(arg)}\`.` };
    }
  }
  return out;
}

async function viewAllowed(ctx: CommandContext, application: string, usage: string): Promise<boolean> {
  if (!(await isKnownApplication(ctx.deps.catalog, application))) {
    await ctx.ack(ephemeral(unknownApplicationBlocks(ctx.deps.catalog, application, usage)));
    return false;
  }
  if (!ctx.deps.resourceViews) {
    await ctx.ack(
      ephemeral(textMessage('Resource views are not available: this bot has no cluster access.')),
    );
    return false;
  }
  const decision = await authorizationOf(ctx.deps, {
    action: 'view',
    application,
    userId: ctx.command.user_id,
    channel: ctx.command.channel_id,
  });
  if (!decision.allowed) {
    await ctx.ack(ephemeral(textMessage(`🚫 ${decision.reason}`)));
    return false;
  }
  await ctx.ack();
  return true;
}

async function failed(ctx: CommandContext, what: string, err: unknown): Promise<void> {
  const message = err instanceof Error ? err.message : String(err);
  await ctx.respond(
    ephemeral(textMessage(`⚠️ Could not read ${escapeMrkdwn(what)}: ${escapeMrkdwn(message)}`)),
  );
}

export async function logsCommand(ctx: CommandContext): Promise<void> {
  const [application, ...rest] = ctx.args;
  const parsed = parseLogsArgs(rest);
  if (application === undefined || 'problem' in parsed) {
    const problem =
      application === undefined ? 'Which application? Name one.' : (parsed as { problem: string }).problem;
    return ctx.ack(ephemeral(commandErrorBlocks({ problem, usage: USAGE.logs })));
  }
  if (!(await viewAllowed(ctx, application, USAGE.logs))) return;
  try {
    const { target, ...options } = parsed;
    const result = await ctx.deps.resourceViews!.logs(application, target, options);
    // No Pods: nothing to share; only the user is told.
    if (result.logs.length === 0)
      return void (await ctx.respond(ephemeral(logsBlocks(application, target, result))));
    try {
      const shared = await shareLogs(
        ctx.client,
        ctx.deps.queue,
        {
          application,
          target,
          channel: ctx.command.channel_id,
          userId: ctx.command.user_id,
          ...(options.previous ? { previous: true } : {}),
        },
        result,
      );
      if (shared.as === 'blocks')
        ctx.deps.logger?.warn(
          { err: shared.reason, application },
          'logs not shared as a file; posted as text',
        );
      const where = shared.thread.syncThread ? 'the thread of its latest sync' : 'a new thread';
      await ctx.respond(
        ephemeral(
          textMessage(
            `📜 The logs of ${escapeMrkdwn(target ?? application)} are posted in ${where} in this channel.`,
          ),
        ),
      );
    } catch (err) {
      // Not postable in the channel (the bot is not in it, Slack refuses): the user still gets them, alone.
      ctx.deps.logger?.warn({ err, application }, 'logs not posted in the channel');
      const message = err instanceof Error ? err.message : String(err);
      const reply = logsBlocks(application, target, result);
      await ctx.respond(
        ephemeral({
          ...reply,
          blocks: [
            ...reply.blocks,
            ...textMessage(`⚠️ Not posted in the channel (${escapeMrkdwn(message)}): only you see them.`)
              .blocks,
          ],
        }),
      );
    }
  } catch (err) {
    await failed(ctx, `the logs of ${application}`, err);
  }
}

export async function eventsCommand(ctx: CommandContext): Promise<void> {
  const [application, target, ...extra] = ctx.args;
  if (application === undefined || extra.length > 0 || target?.startsWith('-')) {
    const problem =
      application === undefined
        ? 'Which application? Name one.'
        : `Unexpected \`${escapeMrkdwn((extra[0] ?? target) as string)}\`.`;
    return ctx.ack(ephemeral(commandErrorBlocks({ problem, usage: USAGE.events })));
  }
  if (!(await viewAllowed(ctx, application, USAGE.events))) return;
  try {
    await ctx.respond(
      ephemeral(eventsBlocks(application, target, await ctx.deps.resourceViews!.events(application, target))),
    );
  } catch (err) {
    await failed(ctx, `the events of ${application}`, err);
  }
}
