/** `/sync help` — every subcommand and flag. */
import { helpBlocks } from '../messages/help-blocks.js';
import { type CommandContext, ephemeral } from './command-context.js';

export async function helpCommand(ctx: CommandContext): Promise<void> {
  await ctx.ack(ephemeral(helpBlocks()));
}
