import { describe, expect, it } from 'vitest';
import { countEventLoopTurns } from '../../../test/support/event-loop-turns.js';
import { type ApplicationDiff, TimeSlice } from '../../engine/index.js';
import { previewForTransfer, summarizeDiff } from '../../environments/index.js';
import { diffModal, diffTextLines, fullDiffLayout, fullDiffLayoutWork } from './diff-blocks.js';

/** A diff that creates `count` ConfigMaps (each diff 4 lines, an empty line between two), one with a note. */
function createDiff(count: number): ApplicationDiff {
  const resources = Array.from({ length: count }, (_, i) => ({
    group: '',
    kind: 'ConfigMap',
    namespace: 'big',
    name: `cm-${i}`,
    action: i === 1 ? ('unchanged' as const) : ('create' as const),
    fields: [],
    secretKeysChanged: [],
    diff: i === 1 ? '' : `--- live\n+++ desired\n+data:\n\n+  index: "${i}" \`\`\`\n`,
    ...(i === 2 ? { note: 'the dry run failed: the manifest is compared' } : {}),
  }));
  return {
    application: 'big',
    revision: 'f00dfeed',
    resources,
    hooks: [],
    counts: { create: count - 1, change: 0, prune: 0, unchanged: 1, pruneSkipped: 0, hooks: 0 },
    warnings: [],
    fingerprint: 'f00dfeed',
  } as unknown as ApplicationDiff;
}

const codeLines = (blocks: { text?: { text: string } }[]) =>
  blocks.flatMap((b) => (b.text?.text.startsWith('```') ? b.text.text.slice(3, -3).split('\n') : []));

describe('src/slack/messages/diff-blocks', () => {
  it('shows the first lines of a big diff in the blocks and counts the rest as diffTextLines has them', () => {
    const diff = createDiff(20_000);
    const all = diffTextLines(diff);
    const { blocks, hiddenLines } = fullDiffLayout(diff, { maxBlocks: 50 });

    const shown = codeLines(blocks as { text?: { text: string } }[]);
    expect(shown).toEqual(all.slice(0, shown.length).map((l) => l.replaceAll('```', "'''")));
    expect(shown.length).toBeGreaterThan(100);
    expect(hiddenLines).toBe(all.length - shown.length);
    expect(all.length).toBe(19_999 * 5 + 1);
    expect(blocks.length).toBeLessThanOrEqual(50);
    expect(JSON.stringify(blocks.at(-1))).toContain(`${hiddenLines} more diff lines do not fit in Slack`);
  });

  it('shows a small diff whole, with no line hidden', () => {
    const diff = createDiff(3);
    const { blocks, hiddenLines } = fullDiffLayout(diff, { maxBlocks: 50 });

    expect(hiddenLines).toBe(0);
    expect(codeLines(blocks as { text?: { text: string } }[])).toEqual(
      diffTextLines(diff).map((l) => l.replaceAll('```', "'''")),
    );
  });

  it("lays out a big diff in time slices (the bot thread's /sync diff): other work runs in between, same blocks", async () => {
    const diff = createDiff(20_000);
    const turns = countEventLoopTurns();
    // A slice of 0 ms pauses at every yield point: whether it yields does not depend on the machine's speed.
    const sliced = await new TimeSlice(0).run(fullDiffLayoutWork(diff, { maxBlocks: 50 }));
    const during = turns.stop();

    expect(during).toBeGreaterThan(10);
    expect(sliced).toEqual(fullDiffLayout(diff, { maxBlocks: 50 }));
    // The preview's summary, when given, is the one shown (not made again).
    const summary = { ...summarizeDiff(diff), moreEntries: 7 };
    const given = await new TimeSlice(0).run(fullDiffLayoutWork(diff, { maxBlocks: 50, summary }));
    expect(JSON.stringify(given.blocks[0])).toContain('and 7 more');
    expect(given.blocks.slice(1)).toEqual(sliced.blocks.slice(1));
  });

  it("shows the same from a preview as it crosses from serve's worker thread (unchanged resources without a note left out)", () => {
    // 10,000 unchanged ConfigMaps, two of them with a note, and a change and a create among them.
    const diff = createDiff(10_000);
    diff.resources = diff.resources.map((r, i) => ({
      ...r,
      action: i === 4000 ? 'change' : i === 9000 || i < 2 ? r.action : 'unchanged',
      diff: i === 4000 || i === 9000 || i < 2 ? r.diff : '',
      ...(i === 5000 ? { note: 'the dry run failed: the manifest is compared' } : {}),
    }));
    diff.resources[4000]!.fields = [{ path: 'data.index', live: '"3"', desired: '"4000"' }] as never;
    const summary = summarizeDiff(diff);
    const preview = { revision: 'f00dfeed', plan: {} as never, diff, diffSummary: summary };

    const crossed = previewForTransfer(preview);

    expect(crossed.diff?.resources.map((r) => r.name)).toEqual([
      'cm-0',
      'cm-2',
      'cm-4000',
      'cm-5000',
      'cm-9000',
    ]);
    expect({ ...crossed.diff, resources: [] }).toEqual({ ...diff, resources: [] });
    expect(summarizeDiff(crossed.diff!)).toEqual(summary);
    expect(diffTextLines(crossed.diff!)).toEqual(diffTextLines(diff));
    expect(fullDiffLayout(crossed.diff!, { maxBlocks: 50, summary })).toEqual(
      fullDiffLayout(diff, { maxBlocks: 50, summary }),
    );
    expect(diffModal(crossed.diff!, 'a note')).toEqual(diffModal(diff, 'a note'));
  });
});
