/**
 * One rollback per failure: the first allowed click on any Roll back button of a failed job (its summary, its
 * notices), by anyone on any bot replica, claims it; every later click queues nothing. The claim names the
 * workspace, the Application, the failed job (all its buttons) and the history entry it returns to.
 */
import { createHash } from 'node:crypto';

/** How long the claim of a failure's rollback is kept (ms): as long as its buttons are usually clicked. */
export const ROLLBACK_CLAIM_TTL_MS = 7 * 24 * 3_600_000;

/** The claim of rolling `application` back from failed job `failedJobId` to history entry `entryId`. */
export function rollbackClaim(
  workspace: string,
  application: string,
  failedJobId: string | undefined,
  entryId: number,
): string {
  const what = JSON.stringify([workspace, application, failedJobId ?? '', entryId]);
  return createHash('sha256').update(what).digest('hex').slice(0, 40);
}
