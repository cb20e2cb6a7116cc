/**
 * Real git repositories for tests: a working repository that pushes to a bare repository served over `file://`.
 * No mocked git. Commits use a fixed identity.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const IDENTITY = [
  '-c',
  'user.name=wavesync-test',
  '-c',
  'user.email=test@wavesync.invalid',
  '-c',
  'commit.gpgsign=false',
];

export interface GitFixture {
  /** `file://` URL of the bare repository. */
  url: string;
  /** Scratch root (delete with `cleanup`). */
  root: string;
  /** Write files (path → content; null deletes), commit on the current branch, push; returns the new SHA. */
  commit(files: Record<string, string | null>, message?: string): Promise<string>;
  /** Create (or move) a tag at HEAD and push it; annotated when `message` is given. */
  tag(name: string, message?: string): void;
  /** Create a branch at HEAD, switch to it and push it. */
  branch(name: string): void;
  /** Switch the working repository to an existing branch. */
  switchTo(name: string): void;
  cleanup(): Promise<void>;
}

/** A bare repository `repo.git` with `main` as its default branch and no commits yet. */
export async function createGitFixture(): Promise<GitFixture> {
  const root = await mkdtemp(path.join(tmpdir(), 'wavesync-git-'));
  const bare = path.join(root, 'repo.git');
  const work = path.join(root, 'work');
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', [...IDENTITY, ...args], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  await mkdir(bare);
  await mkdir(work);
  git(bare, 'init', '--quiet', '--bare', '--initial-branch=main');
  git(work, 'init', '--quiet', '--initial-branch=main');
  git(work, 'remote', 'add', 'origin', bare);
  return {
    url: `file://${bare}`,
    root,
    async commit(files, message = 'change') {
      for (const [file, content] of Object.entries(files)) {
        const target = path.join(work, file);
        if (content === null) await rm(target, { force: true });
        else {
          await mkdir(path.dirname(target), { recursive: true });
          await writeFile(target, content);
        }
      }
      git(work, 'add', '--all');
      git(work, 'commit', '--quiet', '--allow-empty', '-m', message);
      git(work, 'push', '--quiet', 'origin', 'HEAD');
      return git(work, 'rev-parse', 'HEAD');
    },
    tag(name, message) {
      git(work, 'tag', '--force', ...(message ? ['-a', '-m', message] : []), name);
      git(work, 'push', '--quiet', '--force', 'origin', `refs/tags/${name}`);
    },
    branch(name) {
      git(work, 'switch', '--quiet', '-c', name);
      git(work, 'push', '--quiet', 'origin', name);
    },
    switchTo(name) {
      git(work, 'switch', '--quiet', name);
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/**
 * Writes `wavesync.yaml` and `apps.yaml` into the fixture's root: one Application `name` whose source is the
 * fixture's repository at `path` (targetRevision `main`), destination namespace `namespace`. Returns the path of
 * wavesync.yaml (for `--config`).
 */
export async function writeGitApplication(
  git: GitFixture,
  app: { name: string; namespace: string; path?: string },
): Promise<string> {
  const config = path.join(git.root, 'wavesync.yaml');
  await writeFile(
    config,
    `applications: [{ file: apps.yaml }]\ndefaults: { gitCacheDir: ${path.join(git.root, 'cache')} }\n`,
  );
  await writeFile(
    path.join(git.root, 'apps.yaml'),
    [
      'apiVersion: argoproj.io/v1alpha1',
      'kind: Application',
      `metadata: { name: ${app.name}, namespace: argocd }`,
      'spec:',
      '  project: default',
      `  source: { repoURL: "${git.url}", path: ${app.path ?? 'app'}, targetRevision: main }`,
      `  destination: { server: https://kubernetes.default.svc, namespace: ${app.namespace} }`,
      '',
    ].join('\n'),
  );
  return config;
}
