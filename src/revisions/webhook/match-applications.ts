/**
 * Which Applications a push concerns, as Argo CD's webhook handler decides (util/webhook): a git source whose
 * repository is the pushed one (normalised URLs) and whose targetRevision is the pushed branch or tag (`HEAD` or
 * empty: the default branch, when the payload names it; a semver range: any tag push), narrowed by the
 * `argocd.argoproj.io/manifest-generate-paths` annotation when the payload lists the changed files: `;`-separated
 * paths, relative to the source's `path` (`.` is the path itself) or, starting with `/`, to the repository root;
 * the Application is concerned when a changed file is under one of them.
 */
import path from 'node:path';
import semver from 'semver';
import { type Application, type ApplicationSource, sourcesOf } from '../../domain/index.js';
import { normalizeRepoUrl } from '../repo-url.js';
import type { PushEvent } from './webhook-payloads.js';

const MANIFEST_GENERATE_PATHS = 'argocd.argoproj.io/manifest-generate-paths';

export function pushConcerns(app: Application, push: PushEvent): boolean {
  const repos = new Set(push.repoURLs.map(normalizeRepoUrl));
  const sources = sourcesOf(app).filter(
    (s) => s.repoURL !== '' && !s.chart && repos.has(normalizeRepoUrl(s.repoURL)) && revisionMatches(s, push),
  );
  if (sources.length === 0) return false;
  const annotation = app.annotations[MANIFEST_GENERATE_PATHS];
  if (annotation === undefined || push.changedFiles === undefined) return true;
  return sources.some((source) => {
    const watched = generatePaths(annotation, source.path ?? '');
    return push.changedFiles!.some((file) =>
      watched.some((dir) => dir === '' || file === dir || file.startsWith(`${dir}/`)),
    );
  });
}

/** The annotation's paths, repository-relative, without `./` or a trailing `/` ('' = the whole repository). */
export function generatePaths(annotation: string, sourcePath: string): string[] {
  return annotation
    .split(';')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => {
      const joined = p.startsWith('/') ? p : path.posix.join(sourcePath === '' ? '.' : sourcePath, p);
      const clean = path.posix.normalize(joined).replace(/^\/+/, '').replace(/\/+$/, '');
      return clean === '.' ? '' : clean;
    });
}

function revisionMatches(source: ApplicationSource, push: PushEvent): boolean {
  const target = (source.targetRevision ?? '').trim();
  const branch = push.ref.startsWith('refs/heads/') ? push.ref.slice('refs/heads/'.length) : undefined;
  const tag = push.ref.startsWith('refs/tags/') ? push.ref.slice('refs/tags/'.length) : undefined;
  if (target === '' || target === 'HEAD')
    return branch !== undefined && (push.defaultBranch === undefined || branch === push.defaultBranch);
  if (branch !== undefined) return target === branch || target === push.ref;
  if (tag !== undefined)
    return target === tag || target === push.ref || semver.validRange(target, { loose: true }) !== null;
  return false;
}
