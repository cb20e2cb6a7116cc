/**
 * Names of hooks that only have `metadata.generateName`. Source: gitops-engine `pkg/sync/sync_context.go`
 * getSyncTasks; spec §5.1.
 *
 * name = generateName + lower-case(`<rev>-<phase>-<unixSeconds>`), where `<rev>` is the first 7 characters of the
 * revision when it has 8 or more, else the whole revision, and `<unixSeconds>` is the operation's startedAt in
 * epoch seconds. Characters a Kubernetes name cannot hold (`+` of a chart version, `;` between the revisions of a
 * multi-source Application) become `-`. Deterministic across the passes of one operation, new for every operation.
 * @example hookNameOf('db-migrate-', '3f9a2c1d0e', 'PreSync', 1700000000) === 'db-migrate-3f9a2c1-presync-1700000000'
 */
import type { SyncPhase } from '../../domain/index.js';

export function hookNameOf(
  generateName: string,
  revision: string,
  phase: SyncPhase,
  unixSeconds: number,
): string {
  const rev = revision.length >= 8 ? revision.slice(0, 7) : revision;
  return generateName + `${rev}-${phase}-${unixSeconds}`.toLowerCase().replace(/[^a-z0-9.-]/g, '-');
}

/** Epoch seconds of an ISO-8601 time; throws RangeError when `iso` is not a valid time. */
export function epochSecondsOf(iso: string): number {
  const millis = Date.parse(iso);
  if (Number.isNaN(millis)) throw new RangeError(`startedAt is not an ISO-8601 time: ${JSON.stringify(iso)}`);
  return Math.floor(millis / 1000);
}
