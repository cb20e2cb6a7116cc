/**
 * `/sync apps`: the Applications the bot can sync, with destination and source.
 */
import type { ApplicationSummary } from '../ports.js';
import { type Block, context, plainFallback, type SlackMessage, section } from './block.js';
import { escapeMrkdwn, formatDestination, formatSource, packLines, plural, truncate } from './format.js';

/** Lines grouped into sections of ≤ 3,000 characters; at most 45 sections (then a "… and N more" line). */
export function appsListBlocks(apps: readonly ApplicationSummary[]): SlackMessage {
  if (apps.length === 0) {
    const line = 'No Applications are configured. An operator adds them to wavesync.yaml.';
    return { text: line, blocks: [section(line)] };
  }
  const sorted = [...apps].sort((a, b) => a.name.localeCompare(b.name));
  const lines = sorted.map((a) => truncate(appLine(a), 500));
  const sections = packLines(lines, 2900, 45);
  const shown = sections.reduce((n, s) => n + s.split('\n').length, 0);
  const blocks: Block[] = [section(`*${plural(apps.length, 'Application')}* you can \`/sync\`:`)];
  for (const s of sections) blocks.push(section(s));
  if (shown < lines.length) blocks.push(context(`… and ${lines.length - shown} more`));
  return {
    text: plainFallback(`${apps.length} Applications: ${sorted.map((a) => a.name).join(', ')}`),
    blocks,
  };
}

function appLine(a: ApplicationSummary): string {
  const env = a.environment ? ` (${escapeMrkdwn(a.environment)})` : '';
  const set = a.applicationSet ? ` · ApplicationSet ${escapeMrkdwn(a.applicationSet)}` : '';
  return `• *${escapeMrkdwn(a.name)}*${env} → ${escapeMrkdwn(formatDestination(a.destination))} · from ${escapeMrkdwn(formatSource(a.source))}${set}`;
}
