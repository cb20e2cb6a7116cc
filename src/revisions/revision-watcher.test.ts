import { describe, expect, it } from 'vitest';
import { testApplication } from '../../test/support/test-application.js';
import type { Application } from '../domain/index.js';
import { normalizeRepoUrl } from './repo-url.js';
import { resolveGitTarget } from './resolve-target.js';
import {
  createRevisionWatcher,
  type RevisionMove,
  type RevisionStore,
  type RevisionWatcherDeps,
} from './revision-watcher.js';

const sha = (n: number) => n.toString(16).padStart(40, '0').replace(/^0/, 'a');

function memoryStore(): RevisionStore {
  const seen = new Map<string, string>();
  const claims = new Set<string>();
  return {
    swap: async (app, revision) => {
      const before = seen.get(app);
      seen.set(app, revision);
      return before;
    },
    restore: async (app, revision, previous) => {
      if (seen.get(app) !== revision) return;
      if (previous === undefined) seen.delete(app);
      else seen.set(app, previous);
    },
    claim: async (key) => (claims.has(key) ? false : Boolean(claims.add(key))),
    release: async (key) => void claims.delete(key),
  };
}

const app = (name: string, repo: string, extra: Partial<Application> = {}) =>
  testApplication({ name, source: { repoURL: repo, path: name, targetRevision: 'main' }, ...extra });

function watcher(apps: Application[], heads: Map<string, string>, extra: Partial<RevisionWatcherDeps> = {}) {
  const moves: RevisionMove[] = [];
  const calls: string[] = [];
  const deps: RevisionWatcherDeps = {
    applications: () => apps,
    listRefs: async (url) => {
      calls.push(url);
      const head = heads.get(normalizeRepoUrl(url));
      if (!head) throw new Error(`no repository ${url}`);
      return new Map([
        ['HEAD', head],
        ['refs/heads/main', head],
      ]);
    },
    chartVersion: async () => '1.0.0',
    store: memoryStore(),
    neverSynced: async () => false,
    onMove: async (move) => {
      moves.push(move);
      return 'done';
    },
    ...extra,
  };
  return { watcher: createRevisionWatcher(deps), moves, calls, deps };
}

describe('createRevisionWatcher', () => {
  it('asks each repository once per poll however many Applications use it, however its URL is spelled', async () => {
    const apps = [
      app('a', 'https://git.example.com/team/repo.git'),
      app('b', 'git@git.example.com:team/repo'),
      app('c', 'https://GIT.example.com/team/repo/'),
      app('d', 'https://git.example.com/team/other'),
    ];
    const heads = new Map([
      ['git.example.com/team/repo', sha(1)],
      ['git.example.com/team/other', sha(2)],
    ]);
    const { watcher: w, calls } = watcher(apps, heads);
    const result = await w.poll();
    expect(result).toMatchObject({ gitRequests: 2, applications: 4, moved: 0, errors: 0 });
    expect(calls).toHaveLength(2);
  });

  it('announces a moved branch once per Application, with where it moved from, and not again', async () => {
    const heads = new Map([['git.example.com/r', sha(1)]]);
    const { watcher: w, moves } = watcher([app('a', 'https://git.example.com/r')], heads);
    await w.poll();
    expect(moves).toEqual([]); // the first sight is the baseline
    heads.set('git.example.com/r', sha(2));
    await w.poll();
    await w.poll();
    expect(moves).toHaveLength(1);
    expect(moves[0]).toMatchObject({ from: sha(1), to: sha(2), pin: sha(2), firstSync: false });
    expect(moves[0]?.git).toEqual({ repoURL: 'https://git.example.com/r', branch: 'main', path: 'a' });
  });

  it('two replicas sharing the store act on a move once', async () => {
    const heads = new Map([['git.example.com/r', sha(1)]]);
    const apps = [app('a', 'https://git.example.com/r')];
    const one = watcher(apps, heads);
    const two = watcher(apps, heads, { store: one.deps.store });
    await one.watcher.poll();
    heads.set('git.example.com/r', sha(2));
    await Promise.all([one.watcher.poll(), two.watcher.poll()]);
    expect(one.moves.length + two.moves.length).toBe(1);
  });

  it('keeps the previous revision when acting fails or is deferred, so the next poll acts again', async () => {
    const heads = new Map([['git.example.com/r', sha(1)]]);
    let outcome: 'fail' | 'deferred' | 'done' = 'fail';
    const seen: string[] = [];
    const { watcher: w } = watcher([app('a', 'https://git.example.com/r')], heads, {
      onMove: async (move) => {
        seen.push(`${outcome}:${move.to}`);
        if (outcome === 'fail') throw new Error('Slack is down');
        return outcome;
      },
    });
    await w.poll();
    heads.set('git.example.com/r', sha(2));
    expect((await w.poll()).errors).toBe(1);
    outcome = 'deferred';
    await w.poll();
    outcome = 'done';
    await w.poll();
    await w.poll();
    expect(seen).toEqual([`fail:${sha(2)}`, `deferred:${sha(2)}`, `done:${sha(2)}`]);
  });

  it('syncs an automated Application that never synced once per revision, and not one that is not automated', async () => {
    const heads = new Map([['git.example.com/r', sha(1)]]);
    const apps = [
      app('auto', 'https://git.example.com/r', { syncPolicy: { automated: {} } }),
      app('off', 'https://git.example.com/r', { syncPolicy: { automated: { enabled: false } } }),
      app('manual', 'https://git.example.com/r'),
    ];
    const { watcher: w, moves } = watcher(apps, heads, { neverSynced: async () => true });
    await w.poll();
    await w.poll();
    expect(moves.map((m) => `${m.app.name}:${m.firstSync}`)).toEqual(['auto:true']);
  });

  it('resolves a Helm chart source through the chart versions, once per chart and range', async () => {
    let asked = 0;
    const chart = (name: string) =>
      testApplication({
        name,
        source: { repoURL: 'https://charts.example.com', chart: 'web', targetRevision: '1.x' },
      });
    const { watcher: w } = watcher([chart('x'), chart('y')], new Map(), {
      chartVersion: async () => {
        asked++;
        return '1.2.0';
      },
    });
    expect(await w.poll()).toMatchObject({ chartRequests: 1, gitRequests: 0, applications: 2 });
    expect(asked).toBe(1);
  });

  it('a webhook refresh resolves only the Applications of that repository', async () => {
    const heads = new Map([
      ['git.example.com/r', sha(1)],
      ['git.example.com/s', sha(2)],
    ]);
    const { watcher: w, calls } = watcher(
      [app('a', 'https://git.example.com/r'), app('b', 'https://git.example.com/s')],
      heads,
    );
    const result = await w.refreshRepository('git@git.example.com:r.git', {
      kind: 'push',
      provider: 'GitHub',
    });
    expect(result).toMatchObject({ gitRequests: 1, applications: 1 });
    expect(calls).toEqual(['https://git.example.com/r']);
  });
});

describe('resolveGitTarget', () => {
  const refs = new Map([
    ['HEAD', sha(1)],
    ['refs/heads/main', sha(1)],
    ['refs/tags/v1.2.0', sha(2)],
    ['refs/tags/v1.3.0', sha(3)],
    ['refs/tags/v1.3.0^{}', sha(4)],
    ['refs/tags/v2.0.0', sha(5)],
  ]);
  it('reads branches, tags (peeled), SHAs and semver ranges over the tags', () => {
    expect(resolveGitTarget(refs, 'main')).toBe(sha(1));
    expect(resolveGitTarget(refs, undefined)).toBe(sha(1));
    expect(resolveGitTarget(refs, 'v1.2.0')).toBe(sha(2));
    expect(resolveGitTarget(refs, '^1.0.0')).toBe(sha(4));
    expect(resolveGitTarget(refs, '>=3.0.0')).toBeUndefined();
    expect(resolveGitTarget(refs, 'nope')).toBeUndefined();
    expect(resolveGitTarget(refs, 'A'.repeat(40))).toBe('a'.repeat(40));
  });
});

describe('normalizeRepoUrl', () => {
  it('makes https, scp-like ssh and ssh:// spellings of one repository the same key', () => {
    for (const url of [
      'https://github.com/Org/Repo.git',
      'git@github.com:org/repo.git',
      'ssh://git@github.com/org/repo/',
      'https://user:token@github.com/org/repo',
    ]) {
      expect(normalizeRepoUrl(url)).toBe('github.com/org/repo');
    }
    expect(normalizeRepoUrl('file:///tmp/x/repo.git')).toBe('/tmp/x/repo');
  });
});
