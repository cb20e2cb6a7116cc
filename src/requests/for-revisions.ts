/**
 * The request path's entry point for origin `automated`, for src/revisions/ only (dependency-cruiser
 * `request-origins-only-from-their-owner`): the revision watcher owns that authorization — it saw a new revision of
 * an Application with `syncPolicy.automated` (or one never synced) and asked src/environments automatedSyncDecision
 * whether the environment lets it sync now. Queued with the request key `automated:<key>` and a job id derived from
 * `key` (application and revision: a webhook racing a poll, or two bot replicas, queue one job), logged and audited
 * `automated-sync` with its trigger; where the environment requires approval, an approval request is posted
 * instead (Approvals.requestAutomatedApproval) and nothing is queued until it is approved.
 */
import {
  type RequestSyncDeps,
  type RequestSyncOutcomes,
  requestSyncAnyOrigin,
  type SyncAsk,
} from './request-sync.js';

export type AutomatedRequestDeps = RequestSyncDeps['automated'];
export type AutomatedAsk = Omit<Extract<SyncAsk, { origin: 'automated' }>, 'origin'>;
export type AutomatedOutcome = RequestSyncOutcomes['automated'];

/** @throws what enqueueSync or the approval flow throws (the watcher keeps the previous revision and tries again). */
export function requestAutomatedSync(
  deps: AutomatedRequestDeps,
  ask: AutomatedAsk,
): Promise<AutomatedOutcome> {
  return requestSyncAnyOrigin(deps, { origin: 'automated', ...ask });
}
