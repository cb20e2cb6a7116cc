/**
 * How a revision is shown to people. Revisions are stored in full: a git commit SHA (40 hex), a Helm chart version
 * (`17.3.2`) for a chart from a chart repository, or for a source without revisions (a local folder) the content hash
 * of its rendered manifests (sha256: 64 hex, or its first 12 for an Application's local source). A multi-source
 * Application's revision is its sources' revisions in order, joined by `;` (its ref likewise).
 */

/** Between the revisions (and the refs) of a multi-source Application's sources. */
const REVISION_SEPARATOR = ';';

/** The revisions of each source, in order (one element for a single-source Application). */
export function splitRevisions(revision: string): string[] {
  return revision.split(REVISION_SEPARATOR);
}

/** One revision holding each source's, in order. */
export function joinRevisions(revisions: readonly string[]): string {
  return revisions.join(REVISION_SEPARATOR);
}

/**
 * `3f9c2e1 (main)` for a git SHA (7 characters, then the ref it was resolved from when that is not the SHA
 * itself), `local@5b1e0c9a` for the content hash of a local folder, a chart version with the range it was chosen
 * by (`17.3.2 (17.x)`), anything else unchanged (a ref not yet resolved). A multi-source revision shows each
 * source's, joined by ` + ` (`17.3.2 (17.x) + 3f9c2e1 (main)`).
 */
export function displayRevision(revision: string, ref?: string): string {
  const revisions = splitRevisions(revision);
  if (revisions.length > 1) {
    const refs = ref === undefined ? [] : splitRevisions(ref);
    return revisions.map((r, i) => displayOne(r, refs[i])).join(' + ');
  }
  return displayOne(revision, ref);
}

function displayOne(revision: string, ref: string | undefined): string {
  if (/^[0-9a-f]{40}$/.test(revision)) {
    const named = ref !== undefined && ref !== '' && !revision.startsWith(ref) ? ` (${ref})` : '';
    return `${revision.slice(0, 7)}${named}`;
  }
  if (/^([0-9a-f]{12}|[0-9a-f]{64})$/.test(revision)) return `local@${revision.slice(0, 8)}`;
  if (ref !== undefined && ref !== '' && ref !== revision && revision !== '') return `${revision} (${ref})`;
  return revision;
}
