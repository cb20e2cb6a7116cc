/**
 * The live diff in Slack: the summary lines of the approval message and of `/sync diff` (counts, the first
 * changed resources with their first changed fields), and the View diff modal (the full unified diff, cut into
 * code blocks within Slack's limits: 3,000 characters per section, 100 blocks per modal; what does not fit is
 * named, with `wavesync diff` for the rest). Everything shown comes from the engine's masked diff: Secret values
 * never reach these blocks.
 */
import type { DiffSummary } from '../../approvals/index.js';
import { summarizeDiff } from '../../approvals/index.js';
import { type ApplicationDiff, type DiffAction, formatDiffCounts } from '../../engine/index.js';
import { type Block, context, SLACK_LIMITS, section } from './block.js';
import { escapeMrkdwn, packLines, truncate } from './format.js';

const ACTION_MARK: Record<DiffAction, string> = {
  create: '➕',
  change: '✏️',
  unchanged: '',
  prune: '🗑',
  'prune-skipped': '',
};

/** The summary as mrkdwn lines: `*Live diff:* 2 to create, 3 to change…` then one bullet per changed resource. */
export function diffSummaryLines(summary: DiffSummary): string[] {
  const lines = [`*Live diff:* ${formatDiffCounts(summary.counts)}`];
  for (const entry of summary.entries) {
    const fields = entry.fields.map((f) => `\`${escapeMrkdwn(truncate(f, 120))}\``).join(', ');
    const more = entry.moreFields > 0 ? ` (+${entry.moreFields} more)` : '';
    const what = entry.action === 'change' ? `: ${fields}${more}` : ` (${entry.action})`;
    lines.push(`${ACTION_MARK[entry.action]} ${escapeMrkdwn(entry.resource)}${what}`);
  }
  if (summary.moreEntries > 0) lines.push(`…and ${summary.moreEntries} more — *View diff* shows everything`);
  for (const warning of summary.warnings) lines.push(`⚠️ ${escapeMrkdwn(truncate(warning, 300))}`);
  return lines;
}

/** One section with the summary (cut to Slack's section limit). */
export function diffSummaryBlock(summary: DiffSummary): Block {
  return section(truncate(diffSummaryLines(summary).join('\n'), SLACK_LIMITS.maxSectionText));
}

/** `Live diff: not available (…)` when the cluster could not be read. */
export function liveDiffUnavailableBlock(reason: string): Block {
  return context(`Live diff not available: ${escapeMrkdwn(truncate(reason, 500))}`);
}

/** Slack's modal limits (views.open reference): 100 blocks, title 24 characters. */
export const MODAL_LIMITS = { maxBlocks: 100, maxTitle: 24 } as const;

/** The blocks of the full diff: summary, then the unified diff in code sections, within `maxBlocks`. */
export function fullDiffBlocks(
  diff: ApplicationDiff,
  options: { maxBlocks: number; note?: string },
): Block[] {
  const blocks: Block[] = [diffSummaryBlock(summarizeDiff(diff))];
  if (options.note) blocks.push(context(escapeMrkdwn(options.note)));
  const lines: string[] = [];
  for (const r of diff.resources) {
    if (r.action === 'unchanged') continue;
    lines.push(`===== ${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name} (${r.action}) =====`);
    if (r.note) lines.push(`note: ${r.note}`);
    lines.push(...r.diff.split('\n').filter((l) => l !== ''));
  }
  // ``` fences take 8 characters; a line longer than a section is cut.
  const room = SLACK_LIMITS.maxSectionText - 8;
  const fitted = lines.map((l) =>
    l.length > room ? `${l.slice(0, room - 1)}…` : l.replaceAll('```', "'''"),
  );
  const slots = options.maxBlocks - blocks.length - 1;
  const chunks = packLines(fitted, room, slots);
  for (const chunk of chunks) blocks.push(section(`\`\`\`${chunk}\`\`\``));
  const shown = chunks.reduce((n, c) => n + c.split('\n').length, 0);
  if (shown < fitted.length) {
    blocks.push(
      context(
        `${fitted.length - shown} more diff lines do not fit in Slack: run \`wavesync diff --app ${escapeMrkdwn(diff.application)}\` for all of it.`,
      ),
    );
  }
  return blocks;
}

/** The View diff modal (`views.open` view). */
export function diffModalView(diff: ApplicationDiff, note?: string) {
  const title = truncate(`Diff: ${diff.application}`, MODAL_LIMITS.maxTitle);
  return {
    type: 'modal' as const,
    title: { type: 'plain_text' as const, text: title },
    close: { type: 'plain_text' as const, text: 'Close' },
    blocks: fullDiffBlocks(diff, { maxBlocks: MODAL_LIMITS.maxBlocks, ...(note ? { note } : {}) }),
  };
}
