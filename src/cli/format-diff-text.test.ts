import { describe, expect, it } from 'vitest';
import type { ApplicationDiff } from '../engine/index.js';
import { formatDiffText } from './format-diff-text.js';

const SHA = '3f9c2e1aa0b4c5d6e7f8091a2b3c4d5e6f708192';

function diff(revision: string, ref?: string): ApplicationDiff {
  return {
    application: 'guestbook',
    revision,
    ...(ref === undefined ? {} : { ref }),
    resources: [],
    hooks: [],
    counts: { create: 0, change: 0, unchanged: 0, prune: 0, pruneSkipped: 0, hooks: 0 },
    warnings: [],
    fingerprint: 'f',
  };
}

describe('formatDiffText: the revision as plan and sync show it', () => {
  it('a git revision as short SHA and ref, a local folder as local@<8>', () => {
    expect(formatDiffText(diff(SHA, 'main'), { color: false }).split('\n')[0]).toBe(
      'guestbook · revision 3f9c2e1 (main) · no changes',
    );
    expect(formatDiffText(diff('9ea41d3e8bf1'), { color: false }).split('\n')[0]).toBe(
      'guestbook · revision local@9ea41d3e · no changes',
    );
  });
});
