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

  it('checks each part as Kubernetes does: names ≤ 253 (DNS subdomain), namespaces ≤ 63 (DNS label)', () => {
    const label = 'a'.repeat(63);
    const longest = [label, label, label, 'a'.repeat(61)].join('.');
    expect(longest).toHaveLength(253);
    expect(parseResource(`apps:Deployment:${longest}`)).toMatchObject({ name: longest });
    expect(parseResource(`apps:Deployment:${longest}a`)).toBeUndefined();
    expect(parseResource(`:ConfigMap:${'x'.repeat(5000)}`)).toBeUndefined();
    expect(parseResource(`apps:Deployment:${'n'.repeat(64)}/web`)).toBeUndefined();
    expect(parseResource('apps:Deployment:Prod/web')).toBeUndefined();
    expect(parseResource('apps:Deployment:web..x')).toBeUndefined();
    expect(parseResource('apps:Deployment:-web')).toBeUndefined();
    expect(parseResource('Apps:Deployment:web')).toBeUndefined();
    expect(parseResource('networking.k8s.io:Ingress:web.example')).toMatchObject({ name: 'web.example' });
  });

  it('names a 5,000-character --resource by its length, not in full', () => {
    const parsed = parseSyncArgs(['--resource', `:ConfigMap:${'x'.repeat(5000)}`]);

    expect(parsed.ok ? '' : parsed.problem.problem).toContain('(5011 characters)');
    expect(parsed.ok ? 0 : parsed.problem.problem.length).toBeLessThan(400);
  });
});
