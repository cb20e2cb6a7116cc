/**
 * requestSync — the one way a sync gets onto the queue. Whoever asks, the steps are the same three, in this order
 * (docs/approvals.md, "The request path"):
 *
 * 1. authorize — per origin, the checks that origin has always had:
 *    - `person` (`/sync`, `/sync rollback`, `/sync delete`'s Delete button, a drift notice's Sync click, the Roll
 *      back button): the environment's request policy for the payload's user and channel (authorizeAction →
 *      authorizeRequest, src/environments), asked by the gate — once per request: the verdict the Slack adapter got
 *      before its ack travels in the gate context (`verdict`) and is reused for the same ask;
 *    - `approved`: the approvers' decision (decideApproval: authorizeDecision and the binding), re-checked in the
 *      approval store (approved, no job yet) before anything is queued;
 *    - `self-heal`: the auto-sync policy (src/drift/self-heal.ts selfHealAllowed with the environment's
 *      autoSyncAllowed), decided by the drift detector before the action reaches here;
 *    - `app-of-apps-child`: inherited from the parent, whose own request went through here (authorized, approved
 *      where required); the child runs with the parent's initiator;
 *    - `appset-removal`: the ApplicationSet's own policy (Argo CD's applicationsSync, preserveResourcesOnDeletion and
 *      the resources finalizer; src/applications/applicationsets/removal-policy.ts), decided by the composition root
 *      when a read stops generating an Application;
 *    - `automated`: the Application's own `syncPolicy.automated` with its environment's rules
 *      (src/environments automatedSyncDecision), decided by the revision watcher (src/revisions) before it asks;
 *    - `retry`: inherited from the failed operation it continues (`spec.syncPolicy.retry`, src/queue/sync-retry.ts),
 *      whose own request went through here: same initiator, same operation (an approved, pinned revision stays
 *      pinned; only an unpinned branch is resolved again with `refresh: true`), delayed by the backoff.
 * 2. approval — only a person's request can need one: where the environment `requireApproval`s, the gate posts an
 *    approval request (or turns the sync's header into it) and nothing is queued (`pending`); once approved it comes
 *    back here as `approved`. Self-heal is never allowed where approval is required; children inherit the parent's.
 * 3. enqueue — on `queue` (SyncQueueClient.enqueueSync), with a durable job id where there is one: the command
 *    journal's id for a journaled command, `approvalJobId(request id)` for an approved request, `childJobId` for a
 *    child; a retry with the same id is a duplicate of the same job, never a second one.
 *
 * Each origin has one function, in the file of the code that owns its authorization:
 * - `person`: `requestSync` here, for anyone (./index.ts, the public face; the gate authorizes);
 * - `approved`: `enqueueApproved` (./enqueue-approved.ts), which ./approval-services.ts hands to the approval flow
 *   as the port `ApprovalDeps.enqueueApproved` (decideApproval after its compare-and-set, enqueueStranded);
 * - `self-heal`: `requestSelfHealSync` (./for-drift.ts), for src/drift/;
 * - `app-of-apps-child`: `requestChildSync` (./for-app-of-apps.ts), for src/app-of-apps/;
 * - `automated`: `requestAutomatedSync` (./for-revisions.ts), for src/revisions/;
 * - `appset-removal`: `requestRemovedApplicationDeletion` (./for-appset-removal.ts), for src/appset-removal/;
 * - `retry`: `requestRetrySync` (./for-main.ts), for the composition root (src/main/), which hands the retry to
 *   src/queue's retry policy as its port.
 *
 * Guarded once each: the types say what a person may ask (no App of Apps chain, no rollout, a deletion only with
 * its plan); dependency-cruiser `request-origins-only-from-their-owner` lets only src/<folder>/ import
 * ./for-<folder>.ts (and its other half, `request-entry-points-not-passed-on`, lets no one outside src/requests
 * re-export it); ./only-requests-enqueue.test.ts fails when a module outside src/requests calls `enqueueSync`.
 */
import type { DeletionApproval, MessageRef, PolicyVerdict } from '../environments/index.js';
import type { DeletionJob, EnqueueResult, SyncJob, SyncRequest } from '../queue/index.js';
import type { EnqueuePort } from './enqueue-port.js';

/** What a person's request brings to the gate besides the request: where its header is, and what to audit. */
export interface GateContext {
  /** The sync's header, already posted: the approval message where approval is required. */
  header: MessageRef;
  /** `--break-glass "reason"` when given. */
  breakGlassReason?: string;
  /** What started it when not a typed command (audited), e.g. `drift notice Sync button`. */
  trigger?: string;
  /** A button on a message the bot posted (the Roll back button), not a typed command. */
  fromBotMessage?: boolean;
  /** The request policy's verdict from before the ack (the gate reuses it for the same ask instead of asking again). */
  verdict?: PolicyVerdict;
}

/**
 * Steps 1 and 2 for a person (src/environments' approval flow, adapted for Slack by createApprovalGate): `proceed`
 * → enqueue now; `pending` → an approval request took it over; `refused` → the requester was told why (ephemeral)
 * and the header says so.
 */
export interface RequestGate {
  gate(request: PersonSyncRequest, context: GateContext): Promise<'proceed' | 'pending' | 'refused'>;
}

/** What a person may ask for: a sync, or a deletion (`/sync delete`'s Delete button). */
export type PersonSyncRequest = PersonSync | PersonDeletion;

/**
 * A person's sync: never an App of Apps child (`appOfApps` carries the manifests the worker would sync,
 * src/app-of-apps/resolve-application.ts; only a parent's own run queues one) nor a rollout's step (a rollout queues
 * its Applications itself, src/app-of-apps/rollout-driver.ts).
 */
type PersonSync = Omit<SyncJob, 'appOfApps' | 'rollout'> & { appOfApps?: never; rollout?: never };

/**
 * A person's deletion: the deletion job (queued with `deletion.request`) and the plan the requester confirmed, shown
 * to the approvers; the gate checks the `delete` permission.
 */
type PersonDeletion = Omit<DeletionJob, 'deletion'> & { deletion: DeletionApproval };

/** A person's request; `jobId`: the command journal's id (a journaled `/sync`), so a recovery queues the same job. */
export interface PersonAsk {
  request: PersonSyncRequest;
  context: GateContext;
  jobId?: string;
}

/**
 * The gate where no approval flow is wired (no environments configured; tests of the Slack app without one):
 * every person's request proceeds, queued as asked. Named so that going without the policy and approvals is a
 * choice a caller writes down.
 */
export const NO_APPROVAL_FLOW: RequestGate = {
  gate: async () => 'proceed',
};

/**
 * `gate`: the environment's policy and approvals (createApprovalGate), or NO_APPROVAL_FLOW where there are none;
 * required, so a new caller cannot leave a person's request unchecked by forgetting it.
 */
export interface PersonRequestDeps {
  queue: EnqueuePort;
  gate: RequestGate;
}

/**
 * What became of a person's request. `not-queued`: the queue refused the job (`error`, e.g. BotError not_queued);
 * the gate's own failures reject instead.
 */
export type PersonOutcome =
  | { kind: 'refused' }
  | { kind: 'pending' }
  | { kind: 'queued'; result: EnqueueResult }
  | { kind: 'not-queued'; error: unknown };

/**
 * requestSync for a person (`/sync`, its buttons): authorize → approval → enqueue through the gate (see above).
 * @throws what the gate throws (nothing is queued then).
 */
export async function requestSync(deps: PersonRequestDeps, ask: PersonAsk): Promise<PersonOutcome> {
  const { request, context } = ask;
  const gated = await deps.gate.gate(request, context);
  if (gated !== 'proceed') return { kind: gated };
  const queued: SyncRequest = request.deletion ? { ...request, deletion: request.deletion.request } : request;
  try {
    const options = ask.jobId === undefined ? undefined : { jobId: ask.jobId };
    return { kind: 'queued', result: await deps.queue.enqueueSync(queued, options) };
  } catch (error) {
    return { kind: 'not-queued', error };
  }
}
