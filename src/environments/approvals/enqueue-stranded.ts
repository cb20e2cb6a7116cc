/**
 * Approved requests a stopped bot never queued: the bot stopped between storing the approval (the store's DECIDE
 * put the request in its to-enqueue set) and recording the job. The expiry sweeper hands each one, once
 * `STRANDED_AFTER_MS` old, to the request path again (`deps.enqueueApproved`), whose job id is derived from the
 * request, so a late retry never queues twice.
 */
import type { ApprovalDeps } from './approval-deps.js';
import { runApprovedResourceAction } from './resource-action-approval.js';

/** An approved request counts as stranded this long after its approval without a recorded job (ms). */
export const STRANDED_AFTER_MS = 10_000;

/**
 * Queue the stranded approved requests; resolves with how many were queued now. A request that is no longer
 * approved, or already has a job or a note, just leaves the to-enqueue set.
 */
export async function enqueueStranded(deps: ApprovalDeps): Promise<number> {
  let queued = 0;
  for (const id of await deps.store.awaitingEnqueue(deps.now() - STRANDED_AFTER_MS)) {
    const record = await deps.store.get(id);
    if (record?.status !== 'approved' || record.jobId || record.note) {
      await deps.store.doneEnqueueing(id);
      continue;
    }
    // An approved resource action is run (once: claimRun) instead of queued.
    if (record.request.resourceAction) {
      if ((await runApprovedResourceAction(deps, record)).ran) queued += 1;
      continue;
    }
    const { jobId } = await deps.enqueueApproved(deps, record);
    if (jobId) queued += 1;
  }
  return queued;
}
