/**
 * The live diff in Slack: the summary lines of the approval message and of `/sync diff` (counts, the first
 * changed resources with their first changed fields), and the View diff modal (the full unified diff, cut into
 * code blocks within Slack's limits: 3,000 characters per section, 100 blocks per modal; what does not fit is
 * named, and the whole diff is shared as a file — see src/slack/actions/view-diff-action.ts — or, without one,
 * `wavesync diff` gives the rest). Everything shown comes from the engine's masked diff: Secret values never
 * reach these blocks.
 */

import {
  type ApplicationDiff,
  type DiffAction,
  formatDiffCounts,
  ITEMS_PER_YIELD,
  runAtOnce,
  type SlicedWork,
} from '../../engine/index.js';
import type { DiffSummary } from '../../environments/index.js';
import { diffSummaryWork } from '../../environments/index.js';
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
function diffSummaryLines(summary: DiffSummary): string[] {
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
const MODAL_LIMITS = { maxBlocks: 100, maxTitle: 24 } as const;

/** The unified diff of every changed resource as lines, each resource under a `===== Kind ns/name (action) =====` line. */
export function diffTextLines(diff: ApplicationDiff): string[] {
  return [...diffTextLineIterator(diff)];
}

/** diffTextLines one at a time, made as they are read. */
function* diffTextLineIterator(diff: ApplicationDiff): Generator<string> {
  for (const r of diff.resources) {
    if (r.action === 'unchanged') continue;
    yield `===== ${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name} (${r.action}) =====`;
    if (r.note) yield `note: ${r.note}`;
    for (const line of r.diff.split('\n')) if (line !== '') yield line;
  }
}

/** How many lines diffTextLines has, without making them (a scan for line ends). */
function* diffTextLineCount(diff: ApplicationDiff): SlicedWork<number> {
  let count = 0;
  let seen = 0;
  for (const r of diff.resources) {
    if (++seen % ITEMS_PER_YIELD === 0) yield;
    if (r.action === 'unchanged') continue;
    count += r.note ? 2 : 1;
    let start = 0;
    for (;;) {
      const end = r.diff.indexOf('\n', start);
      if ((end < 0 ? r.diff.length : end) > start) count++;
      if (end < 0) break;
      start = end + 1;
    }
  }
  return count;
}

/** The full diff's blocks and how many of its lines did not fit. */
export interface FullDiffLayout {
  blocks: Block[];
  hiddenLines: number;
}

/**
 * The blocks of the full diff: summary, then the unified diff in code sections, within `maxBlocks`. Lines that do
 * not fit are counted, and named in a last context line: with `fullDiffLink` (the whole diff shared as a file,
 * `<url|name>`) it points there, else to `wavesync diff`.
 */
export function fullDiffLayout(diff: ApplicationDiff, options: FullDiffOptions): FullDiffLayout {
  return runAtOnce(fullDiffLayoutWork(diff, options));
}

export interface FullDiffOptions {
  maxBlocks: number;
  note?: string;
  fullDiffLink?: string;
  /** The diff's summary when already made (SyncPreview.diffSummary); made from `diff` otherwise. */
  summary?: DiffSummary;
}

/**
 * fullDiffLayout as SlicedWork, for TimeSlice.run on the bot's thread (`/sync diff`): the summary and the count of
 * lines that do not fit read every resource (50,000: ~90 ms of CPU in one piece).
 */
export function* fullDiffLayoutWork(
  diff: ApplicationDiff,
  options: FullDiffOptions,
): SlicedWork<FullDiffLayout> {
  const summary = options.summary ?? (yield* diffSummaryWork(diff));
  const blocks: Block[] = [diffSummaryBlock(summary)];
  if (options.note) blocks.push(context(escapeMrkdwn(options.note)));
  // ``` fences take 8 characters; a line longer than a section is cut.
  const room = SLACK_LIMITS.maxSectionText - 8;
  const slots = options.maxBlocks - blocks.length - 1;
  // Only the lines that fit are made (a diff of 20,000 new objects has ~200,000 lines, of which ~400 fit): the
  // rest are counted.
  const fitted = (function* () {
    for (const l of diffTextLineIterator(diff))
      yield l.length > room ? `${l.slice(0, room - 1)}…` : l.replaceAll('```', "'''");
  })();
  const chunks = packLines(fitted, room, slots);
  for (const chunk of chunks) blocks.push(section(`\`\`\`${chunk}\`\`\``));
  const shown = chunks.reduce((n, c) => n + c.split('\n').length, 0);
  const hiddenLines = (yield* diffTextLineCount(diff)) - shown;
  if (hiddenLines > 0) {
    const rest = options.fullDiffLink
      ? `the whole diff is the file ${options.fullDiffLink} in the approval thread.`
      : `run \`wavesync diff --app ${escapeMrkdwn(diff.application)}\` for all of it.`;
    blocks.push(context(`${hiddenLines} more diff lines do not fit in Slack: ${rest}`));
  }
  return { blocks, hiddenLines };
}

/**
 * The View diff modal (`views.open` view) and how many diff lines it could not show. `fullDiffLink` (`<url|name>`)
 * names the file with the whole diff.
 */
export function diffModal(diff: ApplicationDiff, note?: string, fullDiffLink?: string) {
  const title = truncate(`Diff: ${diff.application}`, MODAL_LIMITS.maxTitle);
  const layout = fullDiffLayout(diff, {
    maxBlocks: MODAL_LIMITS.maxBlocks,
    ...(note ? { note } : {}),
    ...(fullDiffLink ? { fullDiffLink } : {}),
  });
  const view = {
    type: 'modal' as const,
    title: { type: 'plain_text' as const, text: title },
    close: { type: 'plain_text' as const, text: 'Close' },
    blocks: layout.blocks,
  };
  return { view, hiddenLines: layout.hiddenLines };
}

/** The View diff modal's view (diffModal). */
export function diffModalView(diff: ApplicationDiff, note?: string, fullDiffLink?: string) {
  return diffModal(diff, note, fullDiffLink).view;
}
