/**
 * What an Application's git `targetRevision` names now, read from the remote's refs (one `git ls-remote` per
 * repository): HEAD, a branch, a tag or a full ref as Argo CD's repo server reads them (../applications git
 * resolveRef: full ref, then tag, then branch), a commit SHA (never moves), or — when no ref has that name — a
 * semver constraint over the tags (`v1.*`, `^1.2`, `>=1.0.0 <2.0.0`), answered by the highest matching tag, as
 * Argo CD does for git sources since 2.x.
 */
import semver from 'semver';
import { resolveRef } from '../applications/index.js';

/** The SHA `targetRevision` names among `refs`, or undefined when nothing matches. */
export function resolveGitTarget(
  refs: ReadonlyMap<string, string>,
  targetRevision: string | undefined,
): string | undefined {
  const wanted = (targetRevision ?? '').trim();
  if (/^[0-9a-f]{40}$/i.test(wanted)) return wanted.toLowerCase();
  const named = resolveRef(refs, wanted);
  if (named) return named;
  if (wanted === '' || semver.validRange(wanted, { loose: true }) === null) return undefined;
  const tags = [...refs.keys()].flatMap((ref) => {
    const m = /^refs\/tags\/(.+?)(\^\{\})?$/.exec(ref);
    return m?.[1] && !m[2] && semver.valid(m[1], { loose: true }) ? [m[1]] : [];
  });
  const best = semver.maxSatisfying(tags, wanted, { loose: true });
  return best === null ? undefined : resolveRef(refs, best);
}

/** The branch name a targetRevision follows (`main`, `refs/heads/main` → `main`), or undefined (HEAD, tag, SHA). */
export function branchOf(
  refs: ReadonlyMap<string, string>,
  targetRevision: string | undefined,
): string | undefined {
  const wanted = (targetRevision ?? '').trim();
  if (wanted === '' || wanted === 'HEAD') return undefined;
  if (wanted.startsWith('refs/heads/')) return wanted.slice('refs/heads/'.length);
  if (refs.has(`refs/tags/${wanted}`)) return undefined;
  return refs.has(`refs/heads/${wanted}`) ? wanted : undefined;
}
