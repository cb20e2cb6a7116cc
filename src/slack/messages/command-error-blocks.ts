/**
 * Ephemeral replies for input a user can fix: what was wrong, the right form, and the closest app name.
 * `No application named "gustbook". Did you mean guestbook? · /sync apps lists them.`
 */
import { type Block, context, plainFallback, type SlackMessage, section } from './block.js';
import { escapeMrkdwn } from './format.js';

export interface CommandProblem {
  /** What was wrong, already phrased for the user (mrkdwn). */
  problem: string;
  /** The right form, e.g. `/sync <app> [--revision REV] [--prune] [--dry-run] [--resource GROUP:KIND:NAME]`. */
  usage?: string;
  /** A corrected app name to suggest. */
  suggestion?: string;
  /** A pointer after the suggestion, e.g. `/sync apps lists them.` */
  hint?: string;
}

/** One section with the problem (and suggestion), one context line with the right form. */
export function commandErrorBlocks(p: CommandProblem): SlackMessage {
  const suggestion = p.suggestion ? ` Did you mean *${escapeMrkdwn(p.suggestion)}*?` : '';
  const line = `${p.problem}${suggestion}${p.hint ? ` · ${p.hint}` : ''}`;
  const blocks: Block[] = [section(line)];
  if (p.usage) blocks.push(context(`Usage: \`${escapeMrkdwn(p.usage)}\``));
  return { text: plainFallback(p.usage ? `${line} Usage: ${p.usage}` : line), blocks };
}

/** The queue could not take the request: nothing was queued. */
export function notQueuedBlocks(application: string, reason: string): SlackMessage {
  const line = `❌ *${escapeMrkdwn(application)}* was not queued: ${escapeMrkdwn(reason)}. Nothing will run; try again in a minute.`;
  return { text: plainFallback(line), blocks: [section(line)] };
}
