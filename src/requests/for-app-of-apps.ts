/**
 * The request path for origin `app-of-apps-child`, for src/app-of-apps/ only (dependency-cruiser
 * `request-origins-only-from-their-owner`): the App of Apps runtime owns that authorization — a child inherits its
 * parent's, whose own request went through requestSync (authorized, approved where required), and runs with the
 * parent's initiator. Queued as asked with the child's derived job id (`childJobId`), so a retried hook never
 * queues it twice. An ApplicationSet's rollout (src/app-of-apps/rollout-driver.ts) queues its Applications here too:
 * a chained sync whose authorization is that of the person who started the rollout (checked for every Application
 * before the first step; one that needs approval goes through the approval flow instead).
 */
import type { EnqueueResult, SyncJob } from '../queue/index.js';
import type { EnqueuePort } from './enqueue-port.js';

/** The child's SyncJob (the chain in `appOfApps`) and its derived job id. */
export interface ChildSyncAsk {
  request: SyncJob;
  jobId: string;
}

/** @throws what enqueueSync throws (the App of Apps driver turns not_queued into a TransientError). */
export function requestChildSync(deps: { queue: EnqueuePort }, ask: ChildSyncAsk): Promise<EnqueueResult> {
  return deps.queue.enqueueSync(ask.request, { jobId: ask.jobId });
}
