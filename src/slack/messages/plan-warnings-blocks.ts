/**
 * The thread reply with a sync's plan warnings, posted right after the header: Pods that read an object the sync
 * creates only in a later step (the engine's reference lint), one `⚠️` line each.
 */
import { type SlackMessage, textMessage } from './block.js';
import { escapeMrkdwn, truncate } from './format.js';

export function planWarningsBlocks(warnings: readonly string[]): SlackMessage {
  return textMessage(truncate(warnings.map((w) => `⚠️ ${escapeMrkdwn(w)}`).join('\n'), 3000));
}
