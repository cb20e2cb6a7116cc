/**
 * Sync on push: what one poll of the revision watcher costs with 200 Applications over 20 git repositories, end to
 * end — real `git` against 20 bare repositories over file://, the real git repository cache, the real watcher and
 * its Redis store on the real Redis (a scratch prefix). Each repository's 10 Applications spell its URL three ways
 * (https-like `file://…/repo.git`, `file://…/repo`, `file://…/repo/`), as teams do. Every git process the cache
 * starts is counted by command (its debug log). Cycles: 1 baseline (every revision first seen), 2 after a commit
 * to 5 repositories (50 moves), 3 idle. The baseline in the same run is resolving each Application on its own
 * (GitRepositoryCache.resolveRevision per Application: what a per-app poll would cost).
 * Run: `npx tsx bench/revision-polling.bench.ts`.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { createGitRepositoryCache } from '../src/applications/git/git-repository-cache.js';
import { removeRedisPrefix } from '../src/demo/remove-redis-prefix.js';
import type { Application } from '../src/domain/index.js';
import { createRevisionWatcher, redisRevisionStore } from '../src/revisions/index.js';
import { testApplication } from '../test/support/test-application.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const REPOS = 20;
const APPS_PER_REPO = 10;
const ID = ['-c', 'user.name=bench', '-c', 'user.email=bench@wavesync.invalid', '-c', 'commit.gpgsign=false'];

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', [...ID, ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), 'wavesync-bench-revisions-'));
  const prefix = `wavesync-bench-rev-${randomUUID().slice(0, 8)}`;
  const redis = new Redis(REDIS_URL);
  try {
    const works: string[] = [];
    const apps: Application[] = [];
    for (let r = 0; r < REPOS; r++) {
      const bare = path.join(root, `repo${r}.git`);
      const work = path.join(root, `work${r}`);
      await mkdir(bare);
      await mkdir(work);
      git(bare, 'init', '--quiet', '--bare', '--initial-branch=main');
      git(work, 'init', '--quiet', '--initial-branch=main');
      git(work, 'remote', 'add', 'origin', bare);
      git(work, 'commit', '--quiet', '--allow-empty', '-m', 'first');
      git(work, 'push', '--quiet', 'origin', 'HEAD');
      works.push(work);
      const spellings = [
        `file://${bare}`,
        `file://${bare.replace(/\.git$/, '')}`,
        `file://${bare.replace(/\.git$/, '')}/`,
      ];
      for (let a = 0; a < APPS_PER_REPO; a++) {
        // git finds `repo.git` for `repo` too (its local transport tries the `.git` suffix).
        const repoURL = spellings[a % spellings.length]!;
        apps.push(
          testApplication({
            name: `app-${r}-${a}`,
            source: { repoURL, path: `app${a}`, targetRevision: 'main' },
          }),
        );
      }
    }
    const counts = new Map<string, number>();
    const cache = createGitRepositoryCache({
      cacheDir: path.join(root, 'cache'),
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      logger: {
        debug: (obj: unknown) => {
          const command = (obj as { git?: string }).git ?? '?';
          counts.set(command, (counts.get(command) ?? 0) + 1);
        },
      },
    });
    let moves = 0;
    const watcher = createRevisionWatcher({
      applications: () => apps,
      listRefs: (url) => cache.listRefs(url),
      chartVersion: () => Promise.reject(new Error('no charts here')),
      store: redisRevisionStore(redis, prefix),
      neverSynced: async () => false,
      onMove: async () => {
        moves++;
        return 'done';
      },
    });
    const rows: string[] = [];
    const cycle = async (label: string) => {
      counts.clear();
      moves = 0;
      const cpu = process.cpuUsage();
      const started = performance.now();
      const result = await watcher.poll();
      const wall = performance.now() - started;
      const used = process.cpuUsage(cpu);
      const other = [...counts].filter(([c]) => c !== 'ls-remote').reduce((n, [, v]) => n + v, 0);
      rows.push(
        `| ${label} | ${result.applications} | ${counts.get('ls-remote') ?? 0} | ${other} | ${moves} | ${wall.toFixed(0)} ms | ${((used.user + used.system) / 1000).toFixed(0)} ms |`,
      );
    };
    await cycle('1 baseline (first sight)');
    for (let r = 0; r < 5; r++) {
      git(works[r]!, 'commit', '--quiet', '--allow-empty', '-m', 'next');
      git(works[r]!, 'push', '--quiet', 'origin', 'HEAD');
    }
    await cycle('2 after commits to 5 repositories');
    await cycle('3 idle');
    counts.clear();
    const started = performance.now();
    for (const app of apps) await cache.resolveRevision(app.source.repoURL, 'main');
    const perApp = performance.now() - started;
    console.log(
      `revision polling: ${apps.length} Applications over ${REPOS} repositories, load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs\n`,
    );
    console.log(
      '| cycle | applications | git ls-remote | other git commands | moves | wall | CPU (this process) |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (const row of rows) console.log(row);
    console.log(
      `\nbaseline, resolveRevision per Application: ${counts.get('ls-remote') ?? 0} git ls-remote, ${[...counts].filter(([c]) => c !== 'ls-remote').reduce((n, [, v]) => n + v, 0)} other git commands, ${perApp.toFixed(0)} ms`,
    );
  } finally {
    await removeRedisPrefix(REDIS_URL, prefix);
    redis.disconnect();
    await rm(root, { recursive: true, force: true });
  }
}

await main();
