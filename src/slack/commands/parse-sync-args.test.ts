import { describe, expect, it } from 'vitest';
import { parseResource, parseSyncArgs, tokenize } from './parse-sync-args.js';

describe('src/slack/commands/parse-sync-args', () => {
  it('tokenizes with straight, curly and single quotes, and reads smart dashes as --', () => {
    expect(
      tokenize('  guestbook  —prune --break-glass "hotfix for INC-42" –revision “v 2” \'a b\' '),
    ).toEqual(['guestbook', '--prune', '--break-glass', 'hotfix for INC-42', '--revision', 'v 2', 'a b']);
  });

  it('parses every flag into a SyncOperation and the break-glass reason', () => {
    expect(
      parseSyncArgs(
        tokenize('--revision main --prune --dry-run --resource :Service:web --break-glass "INC-42 hotfix"'),
      ),
    ).toEqual({
      ok: true,
      operation: {
        revision: 'main',
        prune: true,
        dryRun: true,
        syncOptions: [],
        resources: [{ group: '', kind: 'Service', name: 'web' }],
      },
      breakGlassReason: 'INC-42 hotfix',
    });
    expect(parseSyncArgs([])).toEqual({
      ok: true,
      operation: { prune: false, dryRun: false, syncOptions: [] },
    });
  });

  it.each([
    ['--break-glass ""', '--break-glass needs a reason'],
    [`--break-glass ${'y'.repeat(301)}`, 'The --break-glass reason is 301 characters; keep it to 300'],
    ['--revision "a b"', 'is not a branch, tag or commit'],
    ['--revision -x', '--revision needs a value'],
    ['--resource apps:Deployment', 'Bad --resource'],
    ['-p', 'Unknown flag `-p`.'],
  ])('rejects %s', (text, problem) => {
    const parsed = parseSyncArgs(tokenize(text));

    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.problem.problem).toContain(problem);
  });

  it('reads GROUP:KIND:NAME and GROUP:KIND:NAMESPACE/NAME as Argo CD does', () => {
    expect(parseResource('apps:Deployment:prod/web')).toEqual({
      group: 'apps',
      kind: 'Deployment',
      namespace: 'prod',
      name: 'web',
    });
    expect(parseResource('apps:deployment:web')).toBeUndefined();
    expect(parseResource('apps:Deployment:Web')).toBeUndefined();
  });
});
