/**
 * The request path of the origin src/appset-removal/ owns (dependency-cruiser `request-origins-only-from-their-owner`).
 */
import type { DeletionJob, EnqueueResult } from '../queue/index.js';
import type { EnqueuePort } from './enqueue-port.js';

/**
 * The deletion job of a removed generated Application and its job id (derived from the Application and the deletion
 * plan's hash: one per removal).
 */
export interface RemovalDeletionAsk {
  request: DeletionJob;
  jobId: string;
}

/**
 * Origin `appset-removal`: a generated Application its ApplicationSet no longer generates, whose resources Argo CD
 * would delete (removal-policy.ts), deleted as `/sync delete` deletes (src/deletion; the plan's hash in
 * `request.deletion`). Authorized by the ApplicationSet's policy, as Argo CD's controller acts on it.
 * @throws what enqueueSync throws.
 */
export function requestRemovedApplicationDeletion(
  deps: { queue: EnqueuePort },
  ask: RemovalDeletionAsk,
): Promise<EnqueueResult> {
  return deps.queue.enqueueSync(ask.request, { jobId: ask.jobId });
}
