/**
 * The thread reply with a sync's plan warnings, posted right after the header: Argo CD's silent fallbacks with
 * their file and line (an unknown hook type with "did you mean", a sync-wave that is not an integer, a misspelled
 * sync option — what `wavesync plan` warns of), and Pods that read an object the sync creates only in a later step
 * (the engine's reference lint); one `⚠️` line each, cut to one section.
 */
import { type SlackMessage, textMessage } from './block.js';
import { escapeMrkdwn, truncate } from './format.js';

export function planWarningsBlocks(warnings: readonly string[]): SlackMessage {
  return textMessage(truncate(warnings.map((w) => `⚠️ ${escapeMrkdwn(w)}`).join('\n'), 3000));
}
