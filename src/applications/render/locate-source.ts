/**
 * Where an Application's manifests are on disk. An empty `repoURL` is a local folder: `path` relative to the folder
 * holding wavesync.yaml (docs/applications.md); any other `repoURL` is a git repository checked out at the resolved
 * commit of the requested revision (or `targetRevision`, default HEAD).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ApplicationSource } from '../../domain/index.js';
import { BotError } from '../../domain/index.js';
import { redactUrl } from '../git/git-credentials.js';
import type { GitRepositoryCache } from '../git/git-repository-cache.js';

export interface LocatedSource {
  /** Root of the source: the git checkout, or the local base folder. Value files and overlays stay inside it. */
  root: string;
  /** The Application's folder. */
  dir: string;
  /** Resolved commit SHA for git sources; undefined for local folders (their revision is a content hash). */
  sha: string | undefined;
  /** The revision asked for (git), for messages. */
  revision: string | undefined;
}

/**
 * @throws BotError('render_failed') when the folder does not exist or a git path leaves the repository;
 *   the git cache's errors (revision_not_found, render_failed).
 */
export async function locateSource(
  source: ApplicationSource,
  /** The Application's name (a multi-source one's with the source: `web sources[1]`), for messages. */
  name: string,
  requested: string | undefined,
  context: { baseDir: string; git: GitRepositoryCache | undefined },
): Promise<LocatedSource> {
  const { repoURL, path: sourcePath = '.' } = source;
  if (repoURL === '') {
    const dir = path.resolve(context.baseDir, sourcePath);
    assertFolder(dir, `source path ${sourcePath} of ${name} (${dir})`);
    return { root: context.baseDir, dir, sha: undefined, revision: undefined };
  }
  if (!context.git) throw new BotError('render_failed', `${name}: git sources need the git repository cache`);
  const revision = requested ?? source.targetRevision ?? 'HEAD';
  const checkout = await context.git.checkout(repoURL, revision);
  const dir = path.resolve(checkout.dir, sourcePath);
  const relative = path.relative(checkout.dir, dir);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new BotError('render_failed', `${name}: source path ${sourcePath} leaves the repository`);
  }
  assertFolder(
    dir,
    `path ${sourcePath} in ${redactUrl(repoURL)} at ${checkout.sha.slice(0, 7)} (${revision})`,
  );
  return { root: checkout.dir, dir, sha: checkout.sha, revision };
}

function assertFolder(dir: string, what: string): void {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new BotError('render_failed', `${what} does not exist or is not a folder`);
  }
}
