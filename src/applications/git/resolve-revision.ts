/**
 * Resolve an Argo CD `targetRevision` against `git ls-remote` output, as Argo CD's repo server does before it
 * fetches (util/git/client.go LsRemote): `HEAD` or empty → the remote's HEAD; otherwise the name as a full ref,
 * then as a tag, then as a branch (git's own precedence, gitrevisions(7)); annotated tags resolve to their commit.
 */

/** `ls-remote` output → ref name → SHA (peeled `^{}` entries keep their suffix). */
export function parseLsRemote(output: string): Map<string, string> {
  const refs = new Map<string, string>();
  for (const line of output.split('\n')) {
    const [sha, ref] = line.trim().split('\t');
    if (sha && ref && /^[0-9a-f]{40}$/.test(sha)) refs.set(ref, sha);
  }
  return refs;
}

/** True for a full 40-hex commit SHA. */
export function isCommitSha(revision: string): boolean {
  return /^[0-9a-f]{40}$/i.test(revision);
}

/** True for an abbreviated SHA (7 to 39 hex digits). */
export function isTruncatedSha(revision: string): boolean {
  return /^[0-9a-f]{7,39}$/i.test(revision);
}

/** The commit SHA `revision` names among `refs`, or undefined when no ref has that name. */
export function resolveRef(refs: ReadonlyMap<string, string>, revision: string): string | undefined {
  const wanted = revision === '' ? 'HEAD' : revision;
  const candidates = wanted === 'HEAD' ? ['HEAD'] : [wanted, `refs/tags/${wanted}`, `refs/heads/${wanted}`];
  for (const ref of candidates) {
    const sha = refs.get(`${ref}^{}`) ?? refs.get(ref);
    if (sha) return sha;
  }
  return undefined;
}
