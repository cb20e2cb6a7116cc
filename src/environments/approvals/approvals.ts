/**
 * createApprovals — the approval flow as one object: the gate a person's request passes before the request path
 * (src/requests) enqueues it, the click handler the Slack actions call, the expiry sweeper and the audit view. It
 * never enqueues: an approved request goes back to the request path through `deps.enqueueApproved`.
 */

import type { Initiator } from '../../domain/index.js';
import type { AuditRecord } from '../audit-log.js';
import { checkRequest, type PolicyVerdict, type RequestAsk } from '../check-request.js';
import { environmentFor } from '../environment-resolver.js';
import { type ActionContext, type Authorization, authorizeAction } from '../permissions.js';
import type { ApprovalDeps } from './approval-deps.js';
import { type ApprovalRecord, describeResourceAction, type MessageRef } from './approval-request.js';
import { expireDue, invalidateRecord, withdrawRecord } from './close-approval.js';
import { type DecisionClick, type DecisionResult, decideApproval } from './decide-approval.js';
import { enqueueStranded } from './enqueue-stranded.js';
import {
  type GateRequestContext,
  type GateResult,
  gateRequest,
  requestAutomatedApproval,
} from './gate-request.js';
import {
  type DiffAsk,
  type LiveDiffResult,
  liveDiff,
  type RequestDiffResult,
  requestDiff,
} from './live-diff.js';
import { confirmedBeforeShown, resilientMessenger } from './resilient-messenger.js';
import {
  gateResourceAction,
  type ResourceActionAsk,
  type ResourceActionGate,
  resourceActionRequiresApproval,
} from './resource-action-approval.js';

export type AuditView = { allowed: true; records: AuditRecord[] } | { allowed: false; reason: string };

type PruneConfirmationAuthorization = { allowed: true } | { allowed: false; reason: string };

/** A request waiting for approval, as `/sync status` shows it. */
export interface PendingApproval {
  requestId: string;
  application: string;
  environment: string;
  requester: Initiator;
  /** `/sync delete` rather than a sync. */
  deletion: boolean;
  /** A resource action rather than a sync (`restart Deployment/web`). */
  resourceAction?: string;
  /** ISO-8601. */
  createdAt: string;
  /** ISO-8601. */
  expiresAt: string;
  approvals: number;
  requiredApprovals: number;
  /** The approval message (the sync's header). */
  message?: MessageRef;
}

/** What `/sync cancel` did to a pending approval request. */
export type WithdrawResult =
  | { kind: 'none' }
  | { kind: 'refused'; reason: string }
  | { kind: 'withdrawn'; requestId: string; message?: MessageRef };

/**
 * The approval flow as a new request meets it, before anything is queued: the policy check, the gate (an approval
 * request where the environment requires one), an automated sync's approval request, a stopped rollout's pending
 * requests. Its callers: the Slack gate (src/slack/approval-gate.ts), the revision watcher's and the rollout's wiring.
 */
export interface RequestApprovals {
  /**
   * A person's request, before anything is queued (gateRequest): the policy check, then the approval request
   * where the environment needs one; `proceed` lets the request path (src/requests requestSync) enqueue it.
   */
  gateRequest(ctx: GateRequestContext): Promise<GateResult>;
  /**
   * An automated sync (src/revisions: a new revision of an automated Application) where the environment
   * `requireApproval`s: post the approval request in `ctx.channel` (requestAutomatedApproval); no requester check.
   */
  requestAutomatedApproval(ctx: GateRequestContext & { header?: undefined }): Promise<GateResult>;
  /**
   * The same policy check as gateRequest (who may request, channels, revisions, freeze windows): nothing is
   * posted, and nothing audited unless `options.audit`. `reason` is the text gateRequest would refuse with. Used to
   * refuse before showing anything (e.g. `/sync delete`'s plan, before the ack); an allowed request's `verdict`,
   * handed to gateRequest (`ctx.verdict`), spares the gate a second evaluation of the same ask.
   */
  checkRequest(
    ctx: RequestAsk,
    /** `audit`: write a refusal to the audit log (`refused`), as gateRequest would. */
    options?: { audit?: boolean },
  ): Promise<{ allowed: true; verdict?: PolicyVerdict } | { allowed: false; reason: string }>;
  /** True when a request for `application` (allowed by the policy) waits for approval before it is queued. */
  needsApproval(application: string): boolean;
  /**
   * An ApplicationSet's rollout stopped: invalidate its requests still pending (with `note`, shown on each), so
   * none of its Applications is approved and synced after the stop. Resolves with how many this call closed.
   */
  releaseRollout(rolloutId: string, note: string): Promise<number>;
}

/**
 * The approval flow once requests exist: the Approve/Reject and View diff clicks, the live diff, the expiry sweeper,
 * the authorizations and views behind `/sync audit`, `status`, `cancel`, `confirm-prune` and resource actions. Its
 * callers: the Slack commands and buttons (SlackAppDeps.approvalFlow) and the bot's start-up (the sweeper).
 */
export interface ApprovalFlow {
  /** `/sync diff` and `/sync <app> --dry-run`: the live diff, for whoever may dry-run the Application. */
  liveDiff(ask: DiffAsk): Promise<LiveDiffResult>;
  /** The approval message's View diff button: the request's diff now, and whether it changed since. */
  requestDiff(click: {
    value: string | undefined;
    initiator: Initiator;
    channel: string;
  }): Promise<RequestDiffResult>;
  /** One Approve/Reject click (ephemeral explanations are sent by the flow itself). */
  decide(click: DecisionClick): Promise<DecisionResult>;
  /** Expire due requests now; resolves with how many were expired. */
  expireDue(): Promise<number>;
  /**
   * Queue approved requests a stopped bot never queued (approved ≥ 10 s ago, no job recorded); resolves with how
   * many were queued. Idempotent: the job id is derived from the request.
   */
  enqueueStranded(): Promise<number>;
  /** Every `intervalMs` (default 15 s): expire due requests, then queue stranded approved ones; returns stop(). */
  startExpirySweeper(intervalMs?: number, onError?: (error: unknown) => void): () => void;
  /**
   * May the Slack user do this to this Application from this channel? The one authorization of every command and
   * button (authorizeAction in permissions.ts over the Application's environment); an unknown Application is
   * refused. Refusals have `reason` phrased for the user (ephemeral only).
   */
  authorize(ctx: ActionContext): Promise<Authorization>;
  /** The audit log of `application`, newest first, for whoever the `audit` permission allows. */
  audit(application: string, userId: string, limit?: number, channel?: string): Promise<AuditView>;
  /**
   * True when running resource action `action` on `application` waits for an approval (the environment's
   * `resourceActions.<action>.requireApproval`, else its `requireApproval`).
   */
  resourceActionNeedsApproval(application: string, action: string): boolean;
  /**
   * A resource action someone may run (the caller checked the `action` permission): `proceed` where it needs no
   * approval; else an approval request is posted in `ask.channel` (Approve/Reject; approved, the flow runs it once
   * through ApprovalDeps.runResourceAction and posts the result in the message's thread).
   */
  gateResourceAction(ask: ResourceActionAsk): Promise<ResourceActionGate>;
  /** The requests waiting for approval, of `application` or all, oldest first (`/sync status`). */
  pendingApprovals(application?: string): Promise<PendingApproval[]>;
  /**
   * `/sync cancel <app>` when nothing is running or queued: withdraw the application's newest pending approval
   * request, if `userId` may cancel it (the `cancel` permission through authorize; the requester always may).
   * `none`: there is none; `refused`: the reason for the user (ephemeral).
   */
  withdraw(ask: {
    application: string;
    userId: string;
    channel: string;
    reason?: string;
  }): Promise<WithdrawResult>;
  /** Audit a cancel (`cancelled`: who, where, the job, and the reason given). */
  recordCancel(entry: {
    application: string;
    userId: string;
    channel: string;
    jobId: string;
    reason?: string;
  }): Promise<void>;
  /**
   * May `userId` confirm pruning of `application`'s `Prune=confirm` resources (the `prune-confirm` permission; by
   * default the approvers where approval is required, since pruning is the destructive half of a sync, elsewhere
   * whoever may sync)?
   * An allowed confirmation is written to the audit log (`prune-confirmed`) before the caller records it.
   */
  authorizePruneConfirmation(
    application: string,
    userId: string,
    channel: string,
  ): Promise<PruneConfirmationAuthorization>;
}

/** The whole flow (createApprovals), as the composition root wires it: both ports. */
export interface Approvals extends RequestApprovals, ApprovalFlow {}

/**
 * Build the flow. `onDeliveryError` receives Slack errors that happen after a decision is stored (they do not
 * change the decision; default: ignored).
 */
export function createApprovals(
  given: ApprovalDeps,
  onDeliveryError: (error: unknown) => void = () => undefined,
): Approvals {
  // Durability is confirmed first and fails the click (not recorded); Slack errors after it are only reported.
  const messenger = resilientMessenger(given.messenger, onDeliveryError);
  const onClosed = given.onClosed;
  const deps: ApprovalDeps = {
    ...given,
    messenger: given.durable ? confirmedBeforeShown(messenger, given.durable) : messenger,
    // The request is closed and shown so: a listener's failure is reported, never the decision's.
    ...(onClosed ? { onClosed: (record: ApprovalRecord) => onClosed(record).catch(onDeliveryError) } : {}),
  };
  return {
    gateRequest: (ctx) => gateRequest(deps, ctx),
    requestAutomatedApproval: (ctx) => requestAutomatedApproval(deps, ctx),
    async checkRequest(ctx, options = {}) {
      const checked = await checkRequest(deps, ctx);
      if (checked.kind === 'unknown')
        return { allowed: false, reason: `No application named "${ctx.application}".` };
      if (checked.kind === 'open') return { allowed: true };
      if (checked.decision.allowed)
        return { allowed: true, ...(checked.verdict ? { verdict: checked.verdict } : {}) };
      const { reason } = checked.decision;
      if (options.audit) {
        await deps.audit.append({
          type: 'refused',
          application: checked.app.name,
          environment: checked.env.name,
          userId: ctx.initiator.userId,
          channel: ctx.channel,
          reason,
          ...(ctx.action === 'delete' ? { operation: 'delete' as const } : {}),
        });
      }
      return { allowed: false, reason };
    },
    liveDiff: (ask) => liveDiff(deps, ask),
    requestDiff: (click) => requestDiff(deps, click),
    decide: (click) => decideApproval(deps, click),
    expireDue: () => expireDue(deps),
    async releaseRollout(rolloutId, note) {
      let closed = 0;
      for (const record of await deps.store.pending()) {
        if (record.request.rollout?.rolloutId !== rolloutId) continue;
        if (await invalidateRecord(deps, record, note)) closed += 1;
      }
      return closed;
    },
    enqueueStranded: () => enqueueStranded(deps),
    startExpirySweeper(intervalMs = 15_000, onError = () => undefined) {
      let running = false;
      const timer = setInterval(() => {
        if (running) return;
        running = true;
        expireDue(deps)
          .then(() => enqueueStranded(deps))
          .catch(onError)
          .finally(() => {
            running = false;
          });
      }, intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
    authorize: (ctx) => authorize(deps, ctx),
    async audit(application, userId, limit, channel = '') {
      const permitted = await authorize(deps, { action: 'audit', application, userId, channel });
      if (!permitted.allowed) return permitted;
      return { allowed: true, records: await deps.audit.read(application, limit) };
    },
    async authorizePruneConfirmation(application, userId, channel) {
      const permitted = await authorize(deps, { action: 'prune-confirm', application, userId, channel });
      if (!permitted.allowed) return permitted;
      const app = deps.findApplication(application);
      const env = app && environmentFor(deps.settings, app);
      await deps.audit.append({
        type: 'prune-confirmed',
        application,
        userId,
        channel,
        ...(env ? { environment: env.name } : {}),
      });
      return { allowed: true };
    },
    resourceActionNeedsApproval: (application, action) =>
      resourceActionRequiresApproval(deps, application, action),
    gateResourceAction: (ask) => gateResourceAction(deps, ask),
    needsApproval(application) {
      const app = deps.findApplication(application);
      const env = app && environmentFor(deps.settings, app);
      return env?.settings.requireApproval === true;
    },
    async pendingApprovals(application) {
      return (await deps.store.pending(application)).map(pendingOf);
    },
    async withdraw(ask) {
      const record = (await deps.store.pending(ask.application)).at(-1);
      if (!record) return { kind: 'none' };
      const permitted = await authorize(deps, {
        action: 'cancel',
        application: ask.application,
        userId: ask.userId,
        channel: ask.channel,
        requesterId: record.request.requester.userId,
      });
      if (!permitted.allowed) return { kind: 'refused', reason: permitted.reason };
      if (!(await withdrawRecord(deps, record, ask))) return { kind: 'none' };
      return {
        kind: 'withdrawn',
        requestId: record.request.id,
        ...(record.message ? { message: record.message } : {}),
      };
    },
    async recordCancel(entry) {
      const app = deps.findApplication(entry.application);
      const env = app && environmentFor(deps.settings, app);
      await deps.audit.append({
        type: 'cancelled',
        application: entry.application,
        userId: entry.userId,
        channel: entry.channel,
        jobId: entry.jobId,
        ...(entry.reason ? { reason: entry.reason } : {}),
        ...(env ? { environment: env.name } : {}),
      });
    },
  };
}

function pendingOf(record: ApprovalRecord): PendingApproval {
  const { request } = record;
  return {
    requestId: request.id,
    application: request.application,
    environment: request.environment,
    requester: request.requester,
    deletion: request.deletion !== undefined,
    ...(request.resourceAction ? { resourceAction: describeResourceAction(request.resourceAction) } : {}),
    createdAt: request.createdAt,
    expiresAt: request.expiresAt,
    approvals: record.approvals.length,
    requiredApprovals: request.requiredApprovals,
    ...(record.message ? { message: record.message } : {}),
  };
}

async function authorize(deps: ApprovalDeps, ctx: ActionContext): Promise<Authorization> {
  const app = deps.findApplication(ctx.application);
  if (!app) {
    return { allowed: false, code: 'not_permitted', reason: `No application named "${ctx.application}".` };
  }
  return authorizeAction(environmentFor(deps.settings, app), ctx, deps.groups.isMemberOfAny);
}
