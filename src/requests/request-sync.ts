/**
 * requestSync — the one way a sync gets onto the queue. Whoever asks, the steps are the same three, in this order
 * (requestSyncAnyOrigin below; docs/approvals.md, "The request path"):
 *
 * 1. authorize — per origin, the checks that origin has always had:
 *    - `person` (`/sync`, `/sync rollback`, `/sync delete`'s Delete button, a drift notice's Sync click, the Roll
 *      back button): the environment's request policy for the payload's user and channel (authorizeAction →
 *      authorizeRequest, src/environments), asked by the gate;
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
 * Who may ask with which origin — only the code that owns that origin's authorization:
 * - `person`: anyone, through `requestSync` (./index.ts, the public face; the gate authorizes);
 * - `approved`: the approval flow only (decideApproval after its compare-and-set, enqueueStranded), through the
 *   port `ApprovalDeps.enqueueApproved`, which ./approval-services.ts wires;
 * - `self-heal`: src/drift/ only, through `requestSelfHealSync` (./for-drift.ts);
 * - `app-of-apps-child`: src/app-of-apps/ only, through `requestChildSync` (./for-app-of-apps.ts);
 * - `appset-removal`: src/main/ only, through `requestRemovedApplicationDeletion` (./for-main.ts);
 * - `automated`: src/revisions/ only, through `requestAutomatedSync` (./for-revisions.ts);
 * - `retry`: the worker's wiring (src/main/) only, through `requestRetrySync` (./for-main.ts), which it hands to
 *   the retry policy (src/queue/sync-retry.ts) as its port — src/queue sits below src/requests.
 *
 * Guarded three ways: the public requestSync takes a `person` ask only (its type, and at run time: any other origin,
 * a request carrying `appOfApps`, or a deletion without its plan rejects before anything is queued; its gate is
 * required — NO_APPROVAL_FLOW where none is wired); `requestSyncAnyOrigin` is not exported from ./index.ts, and
 * other folders reach this folder only through it (dependency-cruiser `folders-only-through-index`), except an
 * owner's `for-<folder>.ts`, which only src/<folder>/ may import (`request-origins-only-from-their-owner`) and
 * nobody outside src/requests re-exports (`request-entry-points-not-passed-on`); and
 * ./only-requests-enqueue.test.ts fails when a module outside src/requests calls `enqueueSync` or names an origin
 * other than `person`, or one outside src/{app-of-apps,queue,requests} writes `appOfApps` into a request.
 */
import { randomUUID } from 'node:crypto';
import type {
  ApprovalRecord,
  Approvals,
  AuditEntry,
  DeletionApproval,
  MessageRef,
} from '../environments/index.js';
import type { Logger } from '../logger.js';
import { derivedJobId, type EnqueueResult, type SyncRequest } from '../queue/index.js';
import { type ApprovedRequestDeps, enqueueApproved } from './enqueue-approved.js';
import type { EnqueuePort } from './enqueue-port.js';

export type { EnqueuePort } from './enqueue-port.js';

/** What a person's request brings to the gate besides the SyncRequest: where its header is, and what to audit. */
export interface GateContext {
  /** The sync's header, already posted: the approval message where approval is required. */
  header: MessageRef;
  /** `--break-glass "reason"` when given. */
  breakGlassReason?: string;
  /** `/sync delete`: the plan the requester confirmed, shown to the approvers. */
  deletionPlan?: DeletionApproval['plan'];
  /** What started it when not a typed command (audited), e.g. `drift notice Sync button`. */
  trigger?: string;
  /** A button on a message the bot posted (the Roll back button), not a typed command. */
  fromBotMessage?: boolean;
}

/**
 * Steps 1 and 2 for a person (src/environments' approval flow, adapted for Slack by createApprovalGate): `proceed`
 * → enqueue now; `pending` → an approval request took it over; `refused` → the requester was told why (ephemeral)
 * and the header says so.
 */
export interface RequestGate {
  gate(request: SyncRequest, context: GateContext): Promise<'proceed' | 'pending' | 'refused'>;
}

/**
 * The SyncRequest a person may ask for: never an App of Apps child (`appOfApps` carries the manifests the worker
 * would sync, src/app-of-apps/resolve-application.ts; only a parent's own run queues one, origin
 * `app-of-apps-child`). requestSync also refuses one at run time.
 */
export type PersonSyncRequest = Omit<SyncRequest, 'appOfApps' | 'rollout'> & {
  appOfApps?: never;
  rollout?: never;
};

/** One request to sync, by origin (`origin` is the discriminant). */
export type SyncAsk =
  /** `jobId`: the command journal's id (a journaled `/sync`), so a recovery queues the same job. */
  | { origin: 'person'; request: PersonSyncRequest; context: GateContext; jobId?: string }
  | { origin: 'approved'; record: ApprovalRecord }
  /** `reason`: why, for the audit log (src/drift/self-heal.ts selfHealReason); the request key is made here. */
  | { origin: 'self-heal'; request: Omit<SyncRequest, 'requestKey'>; reason: string }
  | { origin: 'app-of-apps-child'; request: SyncRequest; jobId: string }
  /** `jobId`: derived from the failed job's (one retry per failure); `delayMs`: the backoff. */
  | { origin: 'retry'; request: SyncRequest; jobId: string; delayMs: number }
  /**
   * The deletion of a generated Application's resources that its ApplicationSet stopped generating, as Argo CD's
   * policy says (`jobId` derived from the Application and the deletion plan's hash: one per removal).
   */
  | { origin: 'appset-removal'; request: SyncRequest; jobId: string }
  /**
   * A new revision of an automated Application (src/revisions: a push or a poll saw it move, or it was never
   * synced): `key` names the Application and revision (the request key and the job id derive from it, so two bot
   * replicas, or a webhook racing a poll, queue it once); `approval`: the environment requires one, so an approval
   * request is posted instead (`channel` is where).
   */
  | {
      origin: 'automated';
      request: Omit<SyncRequest, 'requestKey'> & { trigger: string };
      key: string;
      approval?: { channel: string };
    };

export type SyncOrigin = SyncAsk['origin'];

/**
 * The gate where no approval flow is wired (no environments configured; tests of the Slack app without one):
 * every person's request proceeds, queued as asked — what requestSync did without a gate before the gate was
 * required. Named so that going without the policy and approvals is a choice a caller writes down.
 */
export const NO_APPROVAL_FLOW: RequestGate = {
  gate: async () => 'proceed',
};

/** What each origin needs. */
export interface RequestSyncDeps {
  /**
   * `gate`: the environment's policy and approvals (createApprovalGate), or NO_APPROVAL_FLOW where there are none;
   * required, so a new caller cannot leave a person's request unchecked by forgetting it.
   */
  person: { queue: EnqueuePort; gate: RequestGate };
  approved: ApprovedRequestDeps;
  'self-heal': {
    queue: EnqueuePort;
    /** Records the sync in the Application's audit log (`self-heal`; no person asked for it); optional. */
    audit?(entry: AuditEntry): Promise<unknown>;
    logger?: Pick<Logger, 'info' | 'warn'>;
  };
  'app-of-apps-child': { queue: EnqueuePort };
  retry: { queue: EnqueuePort };
  'appset-removal': { queue: EnqueuePort };
  automated: {
    queue: EnqueuePort;
    /** Posts an automated sync's approval request (Approvals.requestAutomatedApproval). */
    approvals: Pick<Approvals, 'requestAutomatedApproval'>;
    /** Records the sync in the Application's audit log (`automated-sync`, with its trigger); optional. */
    audit?(entry: AuditEntry): Promise<unknown>;
    logger?: Pick<Logger, 'info' | 'warn'>;
  };
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

export interface RequestSyncOutcomes {
  person: PersonOutcome;
  /** The job id, or none when it was not queued (noted on the request, audited `not-queued`). */
  approved: { jobId?: string };
  /** @throws what enqueueSync throws (the drift detector forgets the episode's start and tries again). */
  'self-heal': EnqueueResult;
  /** @throws what enqueueSync throws (the App of Apps driver turns not_queued into a TransientError). */
  'app-of-apps-child': EnqueueResult;
  /** @throws what enqueueSync throws (the worker's `ended` hook runs again when the job is retried). */
  retry: EnqueueResult;
  /** @throws what enqueueSync throws. */
  'appset-removal': EnqueueResult;
  /** `pending`: an approval request took it over. @throws what enqueueSync or the approval flow throws. */
  automated: { kind: 'queued'; result: EnqueueResult } | { kind: 'pending' | 'refused'; reason?: string };
}

/** A person's request: the only origin the public face (./index.ts) takes. */
export type PersonAsk = Extract<SyncAsk, { origin: 'person' }>;

/**
 * requestSync for a person (`/sync`, its buttons): authorize → approval → enqueue through the gate (see above).
 * The ask is read once (a snapshot of its origin, request, context and job id); what the gate did not check is
 * refused before the gate is asked, and nothing is queued:
 * - any other origin — it belongs to its owner's entry point;
 * - a request carrying `appOfApps` (an App of Apps child's chain and manifests: only a parent's run queues one);
 * - a deletion (`request.deletion`) without `context.deletionPlan`: the gate checks the `delete` permission and
 *   shows the approvers the plan only with it, so without one it would be gated as a plain sync.
 * @throws Error for each of those (a caller that bypassed the type); the gate's own failures too.
 */
export async function requestSync(deps: RequestSyncDeps['person'], ask: PersonAsk): Promise<PersonOutcome> {
  const {
    origin,
    request: asked,
    context,
    jobId,
  } = ask as { origin: SyncOrigin } & Partial<Omit<PersonAsk, 'origin'>>;
  if (origin !== 'person') {
    throw new Error(
      `requestSync takes a person's request only, not origin '${origin}': ` +
        "that origin's authorization is its owner's (src/requests/request-sync.ts)",
    );
  }
  // Deep copies, each field read once: what is checked here is what the gate sees and what is queued (a getter
  // nested anywhere, e.g. operation.dryRun, cannot answer the gate one way and the queue another).
  const request = structuredClone(asked as SyncRequest);
  const gateContext = structuredClone(context as GateContext);
  if (request.appOfApps !== undefined) {
    throw new Error(
      `requestSync refuses ${request.application}: a person's request carries no appOfApps ` +
        '(an App of Apps child is queued by its parent only, src/requests/for-app-of-apps.ts)',
    );
  }
  if (request.rollout !== undefined) {
    throw new Error(
      `requestSync refuses ${request.application}: a person's request carries no rollout ` +
        '(a rollout queues its Applications itself, src/app-of-apps/rollout-driver.ts)',
    );
  }
  if (request.deletion !== undefined && gateContext.deletionPlan === undefined) {
    throw new Error(
      `requestSync refuses the deletion of ${request.application} without its plan (context.deletionPlan): ` +
        'it would be gated as a sync, not a deletion',
    );
  }
  return personRequest(deps, { request, context: gateContext, jobId });
}

/**
 * Authorize → approval → enqueue, for any origin (see above). Internal to src/requests: reached only through the
 * entry points listed above, never exported from ./index.ts.
 */
export async function requestSyncAnyOrigin<A extends SyncAsk>(
  deps: RequestSyncDeps[A['origin']],
  ask: A,
): Promise<RequestSyncOutcomes[A['origin']]> {
  const outcome = await dispatch(deps as RequestSyncDeps[SyncOrigin], ask);
  return outcome as RequestSyncOutcomes[A['origin']];
}

async function dispatch(
  deps: RequestSyncDeps[SyncOrigin],
  ask: SyncAsk,
): Promise<RequestSyncOutcomes[SyncOrigin]> {
  switch (ask.origin) {
    case 'person':
      return requestSync(deps as RequestSyncDeps['person'], ask);
    case 'approved':
      return enqueueApproved(deps as RequestSyncDeps['approved'], ask.record);
    case 'self-heal':
      return selfHealRequest(deps as RequestSyncDeps['self-heal'], ask);
    case 'app-of-apps-child':
      return deps.queue.enqueueSync(ask.request, { jobId: ask.jobId });
    case 'retry':
      return deps.queue.enqueueSync(ask.request, { jobId: ask.jobId, delayMs: ask.delayMs });
    case 'appset-removal':
      return deps.queue.enqueueSync(ask.request, { jobId: ask.jobId });
    case 'automated':
      return automatedRequest(deps as RequestSyncDeps['automated'], ask);
  }
}

async function automatedRequest(
  deps: RequestSyncDeps['automated'],
  ask: Extract<SyncAsk, { origin: 'automated' }>,
): Promise<RequestSyncOutcomes['automated']> {
  const { request } = ask;
  const application = request.application;
  const requestKey = `automated:${ask.key}`;
  if (ask.approval) {
    const gated = await deps.approvals.requestAutomatedApproval({
      application,
      operation: request.operation,
      initiator: request.initiator,
      channel: ask.approval.channel,
      requestKey,
      trigger: request.trigger,
    });
    if (gated.kind === 'refused') return { kind: 'refused', reason: gated.reason };
    deps.logger?.info({ application, trigger: request.trigger }, 'automated sync awaits approval');
    return { kind: 'pending' };
  }
  const result = await deps.queue.enqueueSync(
    { ...request, requestKey },
    { jobId: derivedJobId('automated', ask.key) },
  );
  deps.logger?.info(
    { application, jobId: result.jobId, trigger: request.trigger, duplicate: result.duplicate },
    'automated sync queued',
  );
  if (!result.duplicate) {
    const target = request.target;
    await deps
      .audit?.({
        type: 'automated-sync',
        trigger: request.trigger,
        application,
        jobId: result.jobId,
        ...(request.operation.revision ? { revision: request.operation.revision } : {}),
        ...(target ? { channel: target.channel, messageTs: target.threadTs } : {}),
      })
      .catch((err: unknown) => deps.logger?.warn({ err, application }, 'automated sync not audited'));
  }
  return { kind: 'queued', result };
}

/** A person's request, read once and checked by requestSync: gate, then enqueue. */
interface CheckedPersonAsk {
  request: SyncRequest;
  context: GateContext;
  jobId: string | undefined;
}

async function personRequest(deps: RequestSyncDeps['person'], ask: CheckedPersonAsk): Promise<PersonOutcome> {
  const gated = await deps.gate.gate(ask.request, ask.context);
  if (gated !== 'proceed') return { kind: gated };
  try {
    const options = ask.jobId === undefined ? undefined : { jobId: ask.jobId };
    return { kind: 'queued', result: await deps.queue.enqueueSync(ask.request, options) };
  } catch (error) {
    return { kind: 'not-queued', error };
  }
}

async function selfHealRequest(
  deps: RequestSyncDeps['self-heal'],
  ask: Extract<SyncAsk, { origin: 'self-heal' }>,
): Promise<EnqueueResult> {
  const { request } = ask;
  const application = request.application;
  const result = await deps.queue.enqueueSync({
    ...request,
    requestKey: `selfheal:${application}:${randomUUID()}`,
  });
  deps.logger?.info(
    { application, jobId: result.jobId, prune: request.operation.prune },
    'self-heal sync queued',
  );
  const target = request.target;
  await deps
    .audit?.({
      type: 'self-heal',
      trigger: 'selfHeal',
      application,
      jobId: result.jobId,
      reason: ask.reason,
      ...(target ? { channel: target.channel, messageTs: target.threadTs } : {}),
    })
    .catch((err: unknown) => deps.logger?.warn({ err, application }, 'self-heal not audited'));
  return result;
}
