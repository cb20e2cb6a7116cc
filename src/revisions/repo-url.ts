/**
 * One key per git repository, however an Application or a webhook spells its URL: Argo CD compares repository URLs
 * after normalising them (util/git NormalizeGitURL / SameURL), so `https://GitHub.com/org/repo.git`,
 * `git@github.com:org/repo` and `ssh://git@github.com/org/repo/` are the same repository. The key is
 * `host[:port]/path`, lower-cased, without scheme, user info, a trailing `/` or `.git`.
 */

/** The repository key of `url` (see above); a string that is no URL at all is trimmed and lower-cased. */
export function normalizeRepoUrl(url: string): string {
  let rest = url.trim();
  const scp = rest.includes('://') ? null : /^(?:[^@/:\s]+@)?([^/:\s]+):(.*)$/.exec(rest);
  if (scp) rest = `${scp[1]}/${scp[2]}`;
  else rest = rest.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^[^@/]*@/, '');
  rest = rest
    .replace(/\/{2,}/g, '/')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '');
  return rest.toLowerCase();
}
