/**
 * gateRequest — the environment's say on one person's sync request (`/sync`, `/sync rollback`, `/sync delete`'s
 * Delete button, a drift notice's Sync click, the Roll back button), in this order: authorize (checkRequest: the
 * request policy; a refusal is audited `refused`), then approval — where the environment `requireApproval`s, an
 * approval request is posted (or the sync's header becomes it) instead of anything being queued; otherwise the
 * request is audited `requested` and may proceed. The request path (src/requests requestSync) calls this through
 * its gate and enqueues only on `proceed`.
 */
import { randomUUID } from 'node:crypto';
import type { Application, PromotionRef, RollbackRef, SyncOperation } from '../../domain/index.js';
import { deletionOperation, type RolloutChain } from '../../queue/index.js';
import type { RefusalCode } from '../authorize-request.js';
import {
  type AskCommon,
  checkRequest,
  type PolicyVerdict,
  type RequestAsk,
  revisionNameOf,
} from '../check-request.js';
import { environmentFor, type ResolvedEnvironment } from '../environment-resolver.js';
import type { ApprovalDeps } from './approval-deps.js';
import {
  type ApprovalRequest,
  type BreakGlass,
  bindingOf,
  type DeletionApproval,
  type MessageRef,
} from './approval-request.js';
import { summarizePlan } from './plan-summary.js';

/** A sync's operation, or a deletion (which syncs nothing) with its plan. */
export type GateRequestContext = GateCommon &
  (
    | { operation: SyncOperation; deletion?: never }
    | {
        operation?: never;
        /** `/sync delete`: the deletion and the plan the requester confirmed (no manifests are rendered). */
        deletion: DeletionApproval;
      }
  );

interface GateCommon extends AskCommon {
  /** Idempotency key of the Slack delivery (e.g. trigger id): a redelivery posts no second approval. */
  requestKey: string;
  /** The sync's header, already posted by the command: it becomes the approval message (else one is posted). */
  header?: MessageRef;
  /** What started the request when not a typed command (audited), e.g. `drift notice Sync button`. */
  trigger?: string;
  /** `/sync rollback` (or the Roll back button): the history entry it returns to; permission `rollback`. */
  rollback?: RollbackRef;
  /** An Application of an ApplicationSet's rollout: queued with it once approved, so the rollout continues. */
  rollout?: RolloutChain;
  /** An automated sync's reason (requestAutomatedApproval only), kept on the request for its job. */
  syncTrigger?: string;
  /** `/sync promote`: the verified revision it moves (shown to approvers, audited). */
  promotion?: PromotionRef;
  /** The policy's verdict from a check before this one (RequestApprovals.checkRequest): reused for the same ask. */
  verdict?: PolicyVerdict;
}

export type GateResult =
  | { kind: 'proceed'; environment?: string; breakGlass?: BreakGlass }
  /** `message` is absent only for a redelivery racing the first delivery's post. */
  | { kind: 'approval-posted'; requestId: string; message?: MessageRef; duplicate?: boolean }
  | { kind: 'refused'; code: RefusalCode | 'unknown_application'; reason: string };

export async function gateRequest(deps: ApprovalDeps, ctx: GateRequestContext): Promise<GateResult> {
  const ask: RequestAsk = ctx.deletion
    ? { ...ctx, action: 'delete' }
    : { ...ctx, ...(ctx.rollback ? { action: 'rollback' as const } : {}) };
  const checked = await checkRequest(deps, ask, ctx.verdict);
  if (checked.kind === 'unknown')
    return {
      kind: 'refused',
      code: 'unknown_application',
      reason: `No application named "${ctx.application}".`,
    };
  if (checked.kind === 'open') return { kind: 'proceed' };
  const { app, env, decision } = checked;
  const base = {
    application: app.name,
    environment: env.name,
    userId: ctx.initiator.userId,
    channel: ctx.channel,
    ...(ctx.deletion ? { operation: 'delete' as const } : {}),
    ...(ctx.trigger ? { trigger: ctx.trigger } : {}),
    ...promotionAudit(ctx),
  };
  if (!decision.allowed) {
    await deps.audit.append({ ...base, type: 'refused', reason: decision.reason });
    return { kind: 'refused', code: decision.code, reason: decision.reason };
  }
  const breakGlass = decision.breakGlass;
  if (!env.settings.requireApproval) {
    await deps.audit.append({ ...base, type: 'requested', breakGlass: breakGlassOf(ctx, breakGlass) });
    return { kind: 'proceed', environment: env.name, ...(breakGlass ? { breakGlass } : {}) };
  }
  return postApprovalRequest(deps, ctx, app, env, breakGlass);
}

/**
 * An automated sync's approval request (a new revision of an Application with `syncPolicy.automated` in an
 * environment that `requireApproval`s): no person asked, so there is no requester policy to check — the automated
 * sync policy is the authorization, decided by its owner (src/revisions) — only the approval: the request is posted
 * in `ctx.channel` and audited `requested` with its trigger. Anything but an Application in an environment that
 * requires approval is refused (that is not an approval's business).
 */
export async function requestAutomatedApproval(
  deps: ApprovalDeps,
  ctx: GateRequestContext & { header?: undefined },
): Promise<GateResult> {
  const app = deps.findApplication(ctx.application);
  const env = app && environmentFor(deps.settings, app);
  if (!app || !env?.settings.requireApproval) {
    return {
      kind: 'refused',
      code: 'unknown_application',
      reason: `${ctx.application} is not in an environment that requires approval`,
    };
  }
  return postApprovalRequest(
    deps,
    { ...ctx, ...(ctx.trigger ? { syncTrigger: ctx.trigger } : {}) },
    app,
    env,
    undefined,
  );
}

async function postApprovalRequest(
  deps: ApprovalDeps,
  ctx: GateRequestContext,
  app: Application,
  env: ResolvedEnvironment,
  breakGlass: BreakGlass | undefined,
): Promise<GateResult> {
  let claimed = await deps.store.claimRequestKey(ctx.requestKey, randomUUID());
  if (claimed.existing) {
    const existing = await deps.store.get(claimed.requestId);
    if (!existing || existing.status === 'pending') {
      const message = existing?.message;
      return {
        kind: 'approval-posted',
        requestId: claimed.requestId,
        duplicate: true,
        ...(message ? { message } : {}),
      };
    }
    claimed = await deps.store.claimRequestKey(ctx.requestKey, randomUUID(), true);
  }
  const request = await newRequest(deps, ctx, app, env, claimed.requestId, breakGlass);
  await deps.store.create(request);
  const pending = { request, status: 'pending' as const, approvals: [] };
  const message = ctx.header ?? (await deps.messenger.postApproval(pending));
  if (ctx.header) await deps.messenger.updateApproval({ ...pending, message: ctx.header });
  await deps.store.attachMessage(request.id, message);
  await deps.audit.append({
    type: 'requested',
    application: app.name,
    environment: env.name,
    userId: ctx.initiator.userId,
    channel: message.channel,
    messageTs: message.ts,
    requestId: request.id,
    revision: request.revision,
    breakGlass: breakGlassOf(ctx, breakGlass),
    ...(ctx.deletion ? { operation: 'delete' as const } : {}),
    ...(ctx.trigger ? { trigger: ctx.trigger } : {}),
    ...promotionAudit(ctx),
  });
  return { kind: 'approval-posted', requestId: request.id, message };
}

async function newRequest(
  deps: ApprovalDeps,
  ctx: GateRequestContext,
  app: Application,
  env: ResolvedEnvironment,
  id: string,
  breakGlass: BreakGlass | undefined,
): Promise<ApprovalRequest> {
  // A deletion renders nothing: its plan comes from the live objects the requester confirmed.
  const preview = ctx.deletion
    ? { revision: DELETION_REVISION, plan: EMPTY_PLAN }
    : await deps.preview(app, ctx.operation);
  // A deletion's approval records the operation its OperationState will (its binding hashes it, as it always has).
  const operation = ctx.deletion ? deletionOperation(ctx.deletion.request) : ctx.operation;
  const now = deps.now();
  return {
    id,
    application: app.name,
    environment: env.name,
    operation,
    revision: preview.revision,
    revisionName: revisionNameOf(app, operation, ctx.promotion),
    binding: bindingOf(app.name, preview.revision, operation, ctx.deletion?.request),
    requester: ctx.initiator,
    channel: ctx.channel,
    approvers: env.settings.approvers,
    requiredApprovals: env.settings.requiredApprovals,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + env.settings.approvalExpiryMinutes * 60_000).toISOString(),
    plan: preview.plan,
    ...(preview.diffSummary ? { diff: preview.diffSummary } : {}),
    ...(preview.liveError ? { liveError: preview.liveError } : {}),
    ...(breakGlass ? { breakGlass } : {}),
    ...(ctx.deletion ? { deletion: ctx.deletion } : {}),
    ...(ctx.rollback ? { rollback: ctx.rollback } : {}),
    ...(ctx.rollout ? { rollout: ctx.rollout } : {}),
    ...(ctx.syncTrigger ? { syncTrigger: ctx.syncTrigger } : {}),
    ...(ctx.promotion ? { promotion: ctx.promotion } : {}),
  };
}

/**
 * What the audit log says of a promotion: the trigger `/sync promote` and, as the reason, what it moves and how it
 * was verified — or why it was not, for a break-glass promotion of an unverified revision.
 */
function promotionAudit(ctx: GateRequestContext): { trigger?: string; reason?: string } {
  const p = ctx.promotion;
  if (!p) return {};
  const how = p.unverified ? `UNVERIFIED: ${p.unverified}` : `verified: ${p.verified ?? ''}`;
  return {
    trigger: ctx.trigger ?? `/sync promote ${p.pipeline}`,
    reason: `promotion of ${p.revision} from ${p.from} (${how})`,
  };
}

/** The break-glass reason to audit: the freeze's, or a promotion's of an unverified revision. */
function breakGlassOf(ctx: GateRequestContext, breakGlass: BreakGlass | undefined): string | undefined {
  if (breakGlass) return breakGlass.reason;
  return ctx.promotion?.unverified ? ctx.breakGlassReason?.trim() : undefined;
}

/** The `revision` of a deletion request (nothing is rendered or applied). */
const DELETION_REVISION = 'delete';

/** A deletion renders nothing: the plan of no tasks, live state not read, nothing pruned. */
const EMPTY_PLAN = summarizePlan([], false, false);
