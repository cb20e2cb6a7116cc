/**
 * Thread reply for a finished hook: `✓ Hook Job/db-migrate succeeded in 31 s`, or on failure the message and
 * the last lines of the hook Pod's log in a code block, cut to fit Slack's 3,000-character section limit.
 */
import type { SyncEvent } from '../../domain/index.js';
import { type Block, plainFallback, SLACK_LIMITS, type SlackMessage, section } from './block.js';
import { escapeMrkdwn, formatDuration, taskName, truncate } from './format.js';

type HookFinished = Extract<SyncEvent, { type: 'HookFinished' }>;

/** Succeeded hooks get one line; failed ones also get their log tail (newest lines kept). */
export function hookOutcomeBlocks(event: HookFinished): SlackMessage {
  const name = `${event.hookType} hook ${taskName(event.task)}`;
  const ok = event.hookPhase === 'Succeeded';
  const line = ok
    ? `✓ ${name} succeeded in ${formatDuration(event.durationMs)}`
    : `✗ ${name} ${event.hookPhase === 'Error' ? 'errored' : 'failed'} after ${formatDuration(event.durationMs)}` +
      (event.message ? `: ${escapeMrkdwn(truncate(event.message, 1000))}` : '');
  const blocks: Block[] = [section(line)];
  if (!ok && event.logTail.length > 0) blocks.push(section(logTailText(event.logTail)));
  return { text: plainFallback(line), blocks };
}

/**
 * A code block of the newest log lines that fits in one section (≤ 3,000 characters with the fences and the
 * note). When lines are dropped, a note above the block says how many are shown.
 */
export function logTailText(lines: readonly string[], limit: number = SLACK_LIMITS.maxSectionText): string {
  const fence = '```';
  const budget = limit - 2 * fence.length - 2 - 80; // fences, newlines, room for the note
  const kept: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = truncate(escapeMrkdwn((lines[i] ?? '').replace(/```/g, "'''")), 500);
    if (used + line.length + 1 > budget) break;
    kept.unshift(line);
    used += line.length + 1;
  }
  const note = kept.length < lines.length ? `_last ${kept.length} of ${lines.length} log lines_\n` : '';
  return `${note}${fence}\n${kept.join('\n')}\n${fence}`;
}
