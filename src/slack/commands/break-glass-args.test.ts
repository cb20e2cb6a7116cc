import { describe, expect, it } from 'vitest';
import { parseSyncArgs, tokenize } from './parse-sync-args.js';

describe('src/slack/commands/parse-sync-args (break-glass)', () => {
  it('keeps a quoted reason as one word, with straight or smart quotes', () => {
    expect(tokenize('guestbook --break-glass "db is down"')).toEqual([
      'guestbook',
      '--break-glass',
      'db is down',
    ]);
    expect(tokenize('guestbook —break-glass “db is down” --prune')).toEqual([
      'guestbook',
      '--break-glass',
      'db is down',
      '--prune',
    ]);
  });

  it('returns the break-glass reason next to the operation, empty when given empty', () => {
    expect(parseSyncArgs(['--break-glass', 'db is down', '--prune'])).toEqual({
      ok: true,
      operation: { prune: true, dryRun: false, syncOptions: [] },
      breakGlassReason: 'db is down',
    });
    expect(parseSyncArgs(tokenize('--break-glass ""'))).toMatchObject({ ok: true, breakGlassReason: '' });
    expect(parseSyncArgs(['--prune'])).toEqual({
      ok: true,
      operation: { prune: true, dryRun: false, syncOptions: [] },
    });
  });
});
