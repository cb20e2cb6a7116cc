/**
 * A local cache of git repositories (simple-git, the `git` binary): one bare mirror per repository URL, one
 * read-only checkout per resolved commit. Revisions resolve as Argo CD's repo server does (resolve-revision.ts);
 * a moved branch is seen at the next `checkout` because names are always re-resolved with `ls-remote`.
 * Work on one repository is serialised within the process. Credentials reach git only through the environment
 * (git-credentials.ts); URLs are shown without user info and every secret is scrubbed from error messages.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type SimpleGit, simpleGit } from 'simple-git';
import { BotError } from '../../domain/index.js';
import type { Logger } from '../../logger.js';
import type { GitCredential } from '../../settings/index.js';
import {
  type GitAuth,
  gitAuthFor,
  gitConfigEnv,
  gitCredentialFor,
  redactUrl,
  scrubSecrets,
} from './git-credentials.js';
import { isCommitSha, isTruncatedSha, parseLsRemote, resolveRef } from './resolve-revision.js';

export interface GitRepositoryCacheOptions {
  /** Root of the cache: `<cacheDir>/repos/<key>.git` mirrors and `<cacheDir>/checkouts/<key>/<sha>` trees. */
  cacheDir: string;
  credentials?: readonly GitCredential[];
  /** Environment of the git processes (PATH, HOME) and source of `tokenEnv` variables; GIT_* entries are dropped. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Timeout of one git process without output, in ms (default 120000). */
  timeoutMs?: number;
  /**
   * Timeout of a request to the remote (`ls-remote`, the first thing every resolution asks) and of every quick
   * local git command, in ms without output (default 15000, Argo CD's `ARGOCD_GIT_REQUEST_TIMEOUT`): a host that
   * accepts the connection and never answers, an SSH server that never completes its handshake, or a git that
   * hangs fails the resolution after this long instead of holding the operation for `timeoutMs` (which only
   * `fetch` and `worktree add` may take).
   */
  requestTimeoutMs?: number;
  logger?: Pick<Logger, 'debug'>;
}

/** A checked-out commit: `dir` holds the repository's files at `sha` (read-only by convention). */
interface GitCheckout {
  repoURL: string;
  revision: string;
  sha: string;
  dir: string;
}

export interface GitRepositoryCache {
  /**
   * Resolve `revision` (branch, tag, SHA or HEAD; '' = HEAD) of `repoURL` to a full commit SHA and make sure the
   * commit is in the cache. @throws BotError('revision_not_found') naming the revision; BotError('render_failed')
   * when git fails (message from git, secrets scrubbed).
   */
  resolveRevision(repoURL: string, revision: string): Promise<string>;
  /** Resolve `revision` and return a checkout of that commit (created once per SHA). Same errors. */
  checkout(repoURL: string, revision: string): Promise<GitCheckout>;
  /**
   * Only the folder `subpath` of `revision` (a branch, tag, full SHA or HEAD), for a big repository of which one
   * folder is needed (Argo CD's resource_customizations): the one commit is fetched shallow and without file
   * contents (`--depth 1 --filter=blob:none`; a server that cannot filter sends them all), then checked out sparse
   * (cone mode: that folder and the files at the root), so only those files are downloaded. `dir` is the checkout's root (`subpath` is inside). Kept apart
   * from the full mirrors `checkout` uses; created once per SHA and path. Same errors.
   */
  checkoutPath(repoURL: string, revision: string, subpath: string): Promise<GitCheckout>;
  /**
   * The remote's refs (`git ls-remote`, one request, nothing fetched): ref name → SHA, peeled tags under
   * `<tag>^{}`. What the revision watcher resolves every Application of the repository against. Same errors.
   */
  listRefs(repoURL: string): Promise<Map<string, string>>;
  /**
   * Commit `sha` (fetched when not cached): its author, subject, and the files changed since `since` (when that
   * commit is known too; else the files of `sha` itself). Same errors.
   */
  describeCommit(repoURL: string, sha: string, since?: string): Promise<CommitSummary>;
}

/** What a commit says about itself, for a "main moved to 3f9c2e1" message. */
export interface CommitSummary {
  sha: string;
  author: string;
  subject: string;
  /** Paths (repository-relative) changed since the previous revision, or by the commit alone. */
  files: string[];
}

const READY_MARKER = '.wavesync-ready';

/** Create the cache; nothing touches the disk or network until the first call. */
export function createGitRepositoryCache(options: GitRepositoryCacheOptions): GitRepositoryCache {
  const locks = new Map<string, Promise<unknown>>();
  const withLock = <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const run = (locks.get(key) ?? Promise.resolve()).then(work, work);
    locks.set(
      key,
      run.catch(() => undefined),
    );
    return run;
  };
  const open = (repoURL: string) => openRepository(options, repoURL);

  return {
    resolveRevision: (repoURL, revision) =>
      withLock(repoKey(repoURL), async () => resolveCommit(await open(repoURL), revision)),
    checkout: (repoURL, revision) =>
      withLock(repoKey(repoURL), async () => {
        const repo = await open(repoURL);
        const sha = await resolveCommit(repo, revision);
        const dir = path.join(options.cacheDir, 'checkouts', repoKey(repoURL), sha);
        await exportCommit(repo, sha, dir);
        return { repoURL, revision, sha, dir };
      }),
    checkoutPath: (repoURL, revision, subpath) => {
      const key = repoKey(`${repoURL}\0sparse`);
      return withLock(key, async () => {
        const repo = await openRepository(options, repoURL, key);
        const sha = await resolveShallow(repo, revision);
        const dir = path.join(options.cacheDir, 'checkouts', key, `${sha}-${repoKey(subpath)}`);
        await exportPath(repo, sha, subpath, dir);
        return { repoURL, revision, sha, dir };
      });
    },
    listRefs: (repoURL) =>
      withLock(repoKey(repoURL), async () =>
        parseLsRemote(await run(await open(repoURL), ['ls-remote', 'origin'])),
      ),
    describeCommit: (repoURL, sha, since) =>
      withLock(repoKey(repoURL), async () => {
        const repo = await open(repoURL);
        const notFound = () =>
          new BotError('revision_not_found', `commit ${sha} not found in ${redactUrl(repo.url)}`);
        const full = await ensureCommit(repo, sha.toLowerCase(), notFound);
        const [author = '', subject = ''] = (
          await run(repo, ['show', '-s', '--format=%an%x00%s', full])
        ).split('\0');
        const base = since && isCommitSha(since) && (await hasCommit(repo, since)) ? since : undefined;
        const names = base
          ? await run(repo, ['diff', '--name-only', base, full])
          : await run(repo, ['show', '--name-only', '--format=', full]);
        const files = names.split('\n').filter((line) => line.trim() !== '');
        return { sha: full, author: author.trim(), subject: subject.trim(), files };
      }),
  };
}

/** `revision` as a full SHA without fetching every ref: a SHA as it is, else the remote's answer to ls-remote. */
async function resolveShallow(repo: Repository, revision: string): Promise<string> {
  if (isCommitSha(revision)) return revision.toLowerCase();
  const sha = resolveRef(parseLsRemote(await run(repo, ['ls-remote', 'origin'])), revision);
  if (sha) return sha;
  throw new BotError(
    'revision_not_found',
    `revision "${revision}" not found in ${redactUrl(repo.url)} (no branch or tag of that name; give a full SHA for a commit)`,
  );
}

/** Check out only `subpath` of `sha` into `dir` once, fetching that one commit shallow and blob-less. */
async function exportPath(repo: Repository, sha: string, subpath: string, dir: string): Promise<void> {
  if (existsSync(path.join(dir, READY_MARKER))) return;
  if (!(await hasCommit(repo, sha))) {
    await run(repo, ['fetch', '--quiet', '--depth', '1', '--filter=blob:none', 'origin', sha]);
  }
  await rm(dir, { recursive: true, force: true });
  await run(repo, ['worktree', 'prune']);
  await mkdir(path.dirname(dir), { recursive: true });
  await run(repo, ['worktree', 'add', '--detach', '--force', '--quiet', '--no-checkout', dir, sha]);
  const worktree = repo.inDir(dir);
  // Cone mode (git's default): the folder, and the few files at the repository's root.
  await run(worktree, ['sparse-checkout', 'set', subpath.replace(/^\/+|\/+$/g, '')]);
  await run(worktree, ['checkout', '--quiet', sha]);
  await writeFile(path.join(dir, READY_MARKER), `${sha}\n`);
}

/** Stable directory name for a repository URL. */
function repoKey(repoURL: string): string {
  return createHash('sha256').update(repoURL).digest('hex').slice(0, 16);
}

interface Repository {
  url: string;
  git: SimpleGit;
  /** The same git, with the (shorter) request timeout: for everything but `fetch` and `worktree add`. */
  remote: SimpleGit;
  requestTimeoutMs: number;
  secrets: string[];
  logger: Pick<Logger, 'debug'> | undefined;
  /** The same repository's git run in `dir` (one of its worktrees). */
  inDir(dir: string): Repository;
}

async function openRepository(
  options: GitRepositoryCacheOptions,
  url: string,
  key = repoKey(url),
): Promise<Repository> {
  const dir = path.join(options.cacheDir, 'repos', `${key}.git`);
  await mkdir(dir, { recursive: true });
  const env = options.env ?? {};
  const credential = gitCredentialFor(url, options.credentials ?? []);
  const auth: GitAuth = credential ? gitAuthFor(credential, env) : { config: [], secrets: [] };
  const childEnv = { ...withoutGitVariables(env), GIT_TERMINAL_PROMPT: '0', ...gitConfigEnv(auth) };
  const gitWithTimeout = (block: number, baseDir = dir) =>
    simpleGit({
      baseDir,
      timeout: { block },
      allowEnvironment: Object.keys(childEnv).filter((k) => k.startsWith('GIT_')),
      unsafe: {
        allowUnsafeConfigEnvCount: true,
        allowUnsafeSshCommand: auth.config.some((c) => c.key === 'core.sshCommand'),
      },
    }).env(childEnv);
  const requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
  const secrets = [...auth.secrets, ...urlSecrets(url)];
  const repoIn = (baseDir: string): Repository => ({
    url,
    git: gitWithTimeout(options.timeoutMs ?? 120_000, baseDir),
    remote: gitWithTimeout(requestTimeoutMs, baseDir),
    requestTimeoutMs,
    secrets,
    logger: options.logger,
    inDir: repoIn,
  });
  const repo = repoIn(dir);
  if (!existsSync(path.join(dir, 'HEAD'))) {
    await run(repo, ['init', '--bare', '--quiet']);
    await run(repo, ['remote', 'add', 'origin', url]);
  }
  return repo;
}

/**
 * Variables of the caller's environment that git would obey for something a fetch never needs (an editor, a pager,
 * a password prompt, another config prefix) and that simple-git therefore refuses to pass unless told it is safe
 * (@simple-git/argv-parser parse-env): with `EDITOR` set in a user's shell, every git command failed with `Use of
 * "EDITOR" is not permitted`. They are dropped with the GIT_* variables.
 */
const UNSAFE_FOR_GIT = new Set(['EDITOR', 'VISUAL', 'PAGER', 'SSH_ASKPASS', 'PREFIX']);

function withoutGitVariables(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    const upper = key.toUpperCase();
    if (value !== undefined && !upper.startsWith('GIT_') && !UNSAFE_FOR_GIT.has(upper)) out[key] = value;
  }
  return out;
}

function urlSecrets(url: string): string[] {
  try {
    const { password } = new URL(url);
    return password ? [password, decodeURIComponent(password)] : [];
  } catch {
    return [];
  }
}

/**
 * Run git; failures become BotError('render_failed') with git's message, the URL redacted and secrets scrubbed.
 * Only the commands that move a repository's objects (`fetch`, `worktree add`) may take `timeoutMs`; every other
 * one — `ls-remote`, the first request to the remote, and the quick local ones — runs under the request timeout,
 * so a remote that never answers or a git that hangs ends the resolution promptly, with a message saying so.
 */
async function run(repo: Repository, args: string[]): Promise<string> {
  repo.logger?.debug({ repoURL: redactUrl(repo.url), git: args[0] }, 'git');
  // `-C <worktree> checkout` of a blob-less commit downloads the files: a long one too.
  const command = args[0] === '-C' ? args.slice(2) : args;
  const long =
    command[0] === 'fetch' ||
    command[0] === 'checkout' ||
    (command[0] === 'worktree' && command[1] === 'add');
  try {
    return await (long ? repo.git : repo.remote).raw(args);
  } catch (error) {
    const within = `within ${repo.requestTimeoutMs / 1000} s (defaults.gitRequestTimeoutSeconds)`;
    const detail =
      !long && (error as { plugin?: unknown }).plugin === 'timeout'
        ? args[0] === 'ls-remote'
          ? `no answer from the repository ${within}`
          : `git did not finish ${within}`
        : scrubSecrets(String((error as Error).message ?? error).trim(), repo.secrets);
    throw new BotError('render_failed', `git ${command[0]} of ${redactUrl(repo.url)} failed: ${detail}`, {
      detail,
    });
  }
}

async function hasCommit(repo: Repository, sha: string): Promise<boolean> {
  return run(repo, ['cat-file', '-e', `${sha}^{commit}`]).then(
    () => true,
    () => false,
  );
}

async function fetchAll(repo: Repository): Promise<void> {
  await run(repo, [
    'fetch',
    '--prune',
    '--quiet',
    'origin',
    '+refs/heads/*:refs/heads/*',
    '+refs/tags/*:refs/tags/*',
  ]);
}

async function resolveCommit(repo: Repository, revision: string): Promise<string> {
  const notFound = () =>
    new BotError(
      'revision_not_found',
      `revision "${revision}" not found in ${redactUrl(repo.url)} (no branch, tag or commit of that name)`,
    );
  if (isCommitSha(revision)) return ensureCommit(repo, revision.toLowerCase(), notFound);
  const sha = resolveRef(parseLsRemote(await run(repo, ['ls-remote', 'origin'])), revision);
  if (sha) return ensureCommit(repo, sha, notFound);
  if (!isTruncatedSha(revision)) throw notFound();
  await fetchAll(repo);
  const full = await run(repo, ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`]).catch(() => '');
  if (!isCommitSha(full.trim())) throw notFound();
  return full.trim();
}

async function ensureCommit(repo: Repository, sha: string, notFound: () => BotError): Promise<string> {
  if (await hasCommit(repo, sha)) return sha;
  await fetchAll(repo);
  if (await hasCommit(repo, sha)) return sha;
  await run(repo, ['fetch', '--quiet', 'origin', sha]).catch(() => undefined);
  if (await hasCommit(repo, sha)) return sha;
  throw notFound();
}

/** Check `sha` out into `dir` once (a detached worktree); a half-made directory from a crash is redone. */
async function exportCommit(repo: Repository, sha: string, dir: string): Promise<void> {
  if (existsSync(path.join(dir, READY_MARKER))) return;
  await rm(dir, { recursive: true, force: true });
  await run(repo, ['worktree', 'prune']);
  await mkdir(path.dirname(dir), { recursive: true });
  await run(repo, ['worktree', 'add', '--detach', '--force', '--quiet', dir, sha]);
  await writeFile(path.join(dir, READY_MARKER), `${sha}\n`);
}
