/**
 * How a revision is shown to people. Revisions are stored in full: a git commit SHA (40 hex), or for a source
 * without revisions (a local folder) the content hash of its rendered manifests (sha256: 64 hex, or its first 12
 * for an Application's local source).
 */

/**
 * `3f9c2e1 (main)` for a git SHA (7 characters, then the ref it was resolved from when that is not the SHA
 * itself), `local@5b1e0c9a` for the content hash of a local folder, anything else unchanged (a ref not yet
 * resolved).
 */
export function displayRevision(revision: string, ref?: string): string {
  if (/^[0-9a-f]{40}$/.test(revision)) {
    const named = ref !== undefined && ref !== '' && !revision.startsWith(ref) ? ` (${ref})` : '';
    return `${revision.slice(0, 7)}${named}`;
  }
  if (/^([0-9a-f]{12}|[0-9a-f]{64})$/.test(revision)) return `local@${revision.slice(0, 8)}`;
  return revision;
}
