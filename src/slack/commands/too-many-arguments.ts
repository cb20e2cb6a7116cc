/** The ephemeral reply for words a subcommand does not take. */
import type { SlackMessage } from '../messages/block.js';
import { commandErrorBlocks } from '../messages/command-error-blocks.js';
import { escapeMrkdwn } from '../messages/format.js';

export function tooManyArguments(extra: readonly string[], usage: string): SlackMessage {
  return commandErrorBlocks({ problem: `Unexpected \`${escapeMrkdwn(extra.join(' '))}\`.`, usage });
}
