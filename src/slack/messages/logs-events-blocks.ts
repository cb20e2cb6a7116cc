/**
 * `/sync logs` and `/sync events` replies: each Pod's last lines as a code block (cut to Slack's section size, the
 * newest lines kept), and the Events as one line each, Warnings first.
 */
import type { EventLine, LogsResult } from '../../resource-actions/index.js';
import { type Block, context, plainFallback, SLACK_LIMITS, type SlackMessage, section } from './block.js';
import { escapeMrkdwn, packLines, plural, truncate } from './format.js';

const FENCE = '```';

/** The newest lines of `lines` that fit in one code-block section. */
function codeBlock(lines: readonly string[]): string {
  const room = SLACK_LIMITS.maxSectionText - 2 * FENCE.length - 2;
  const kept: string[] = [];
  let size = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = (lines[i] as string).replaceAll(FENCE, "'''");
    if (size + line.length + 1 > room) break;
    kept.unshift(line);
    size += line.length + 1;
  }
  return `${FENCE}\n${kept.join('\n')}\n${FENCE}`;
}

export function logsBlocks(
  application: string,
  target: string | undefined,
  result: LogsResult,
): SlackMessage {
  const title = `📜 Logs of *${escapeMrkdwn(target ?? application)}*${target ? ` (${escapeMrkdwn(application)})` : ''}`;
  if (result.logs.length === 0) {
    return { text: plainFallback(title), blocks: [section(`${title}\n_no Pods_`)] };
  }
  const blocks: Block[] = [section(title)];
  for (const log of result.logs) {
    if (blocks.length >= SLACK_LIMITS.maxBlocks - 3) break;
    blocks.push(
      context(
        `Pod *${escapeMrkdwn(log.pod)}*${log.problem ? ` — ${escapeMrkdwn(truncate(log.problem, 300))}` : ''}`,
      ),
    );
    if (log.lines.length > 0) blocks.push(section(codeBlock(log.lines)));
  }
  const notes = ["Values of the application's Secrets are shown as ***."];
  if (result.dropped > 0) notes.push(`${plural(result.dropped, 'older line')} left out (64 KiB at most).`);
  blocks.push(context(notes.join(' ')));
  return { text: plainFallback(title), blocks };
}

export function eventsBlocks(
  application: string,
  target: string | undefined,
  events: readonly EventLine[],
): SlackMessage {
  const title = `🗒 Events of *${escapeMrkdwn(target ?? application)}*${target ? ` (${escapeMrkdwn(application)})` : ''}`;
  if (events.length === 0)
    return { text: plainFallback(title), blocks: [section(`${title}\n_no recent events_`)] };
  const lines = events.map((e) => {
    const icon = e.type === 'Warning' ? '⚠️' : 'ℹ️';
    const when = e.last ? `\`${e.last.slice(0, 19).replace('T', ' ')}\` ` : '';
    const times = e.count > 1 ? ` (×${e.count})` : '';
    return `${icon} ${when}*${escapeMrkdwn(e.reason)}* ${escapeMrkdwn(e.object)}${times} — ${escapeMrkdwn(truncate(e.message, 300))}`;
  });
  return {
    text: plainFallback(title),
    blocks: [
      section(title),
      ...packLines(lines, 2900, 20).map((chunk) => section(chunk)),
      context(`${plural(events.length, 'event')}, warnings first, newest first`),
    ],
  };
}
