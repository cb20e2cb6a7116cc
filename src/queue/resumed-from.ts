/**
 * Whether a delivery of a job takes over from this worker or another: BullMQ's lock tokens are
 * `<worker id>:<n>` (node_modules/bullmq/dist/esm/classes/worker.js, mainLoop), the worker id a UUID per Worker
 * instance, so two tokens of one Worker share everything before the last `:`. A restarted process is a new
 * Worker: another worker.
 */

/**
 * `this-worker`: the job's earlier delivery ran on this same Worker (its lock lapsed, or a transient error had it
 * retried); `another-worker`: on a different one (dead, frozen past its lock, shut down).
 */
export type ResumedFrom = 'this-worker' | 'another-worker';

/** `{ resumedFrom }` when `previousOwner` (the earlier delivery's token) is known, else nothing. */
export function resumedFromOf(
  previousOwner: string | undefined,
  owner: string,
): { resumedFrom?: ResumedFrom } {
  if (!previousOwner) return {};
  return { resumedFrom: workerOf(previousOwner) === workerOf(owner) ? 'this-worker' : 'another-worker' };
}

/** The worker part of a lock token (the token itself when it has no `:`). */
function workerOf(token: string): string {
  const colon = token.lastIndexOf(':');
  return colon < 0 ? token : token.slice(0, colon);
}
