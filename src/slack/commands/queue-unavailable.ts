/** The ephemeral reply when the queue cannot be read or changed (Redis down). */
import { BotError } from '../../domain/index.js';
import { textMessage } from '../messages/block.js';
import { escapeMrkdwn } from '../messages/format.js';
import { type CommandContext, ephemeral } from './command-context.js';

export async function queueUnavailable(
  ctx: Pick<CommandContext, 'respond' | 'deps'>,
  err: unknown,
): Promise<void> {
  ctx.deps.logger?.warn({ err }, 'queue unavailable');
  const reason = err instanceof BotError ? err.message : 'the queue is unavailable';
  await ctx.respond(
    ephemeral(
      textMessage(`❌ I could not reach the sync queue: ${escapeMrkdwn(reason)}. Try again in a minute.`),
    ),
  );
}
