/**
 * requestSync — what the `/sync` command calls before enqueueing: apply the environment's request policy, then
 * either let the command enqueue, or post an approval request (nothing is queued), or refuse with a reason.
 */
import { randomUUID } from 'node:crypto';
import type { Application, SyncOperation } from '../domain/index.js';
import type { ApprovalDeps } from '../environments/approvals/approval-deps.js';
import {
  type ApprovalRequest,
  type BreakGlass,
  bindingOf,
  type DeletionApproval,
  type MessageRef,
} from '../environments/approvals/approval-request.js';
import { summarizePlan } from '../environments/approvals/plan-summary.js';
import { environmentFor, type ResolvedEnvironment } from '../environments/environment-resolver.js';
import type { RollbackRef } from '../queue/index.js';
import type { Initiator } from '../queue/sync-reporter.js';
import { authorizeRequest, type RefusalCode, type RequestDecision } from './authorize-request.js';

export interface SyncRequestContext {
  application: string;
  operation: SyncOperation;
  initiator: Initiator;
  channel: string;
  /** `--break-glass "reason"`: undefined without the flag. */
  breakGlassReason?: string;
  /** Idempotency key of the Slack delivery (e.g. trigger id): a redelivery posts no second approval. */
  requestKey: string;
  /** The sync's header, already posted by the command: it becomes the approval message (else one is posted). */
  header?: MessageRef;
  /** `/sync delete`: the deletion and the plan the requester confirmed (no manifests are rendered). */
  deletion?: DeletionApproval;
  /** What started the request when not a typed command (audited), e.g. `drift notice Sync button`. */
  trigger?: string;
  /** `/sync rollback` (or the Roll back button): the history entry it returns to; permission `rollback`. */
  rollback?: RollbackRef;
  /** A button on a message the bot posted, not a typed command (authorizeAction's `fromBotMessage`). */
  fromBotMessage?: boolean;
}

export type RequestSyncResult =
  | { kind: 'enqueue'; environment?: string; breakGlass?: BreakGlass }
  /** `message` is absent only for a redelivery racing the first delivery's post. */
  | { kind: 'approval-posted'; requestId: string; message?: MessageRef; duplicate?: boolean }
  | { kind: 'refused'; code: RefusalCode | 'unknown_application'; reason: string };

/** Symbolic revision of a sync: `--revision`, else the Application's targetRevision, else HEAD. */
export function revisionNameOf(app: Application, operation: SyncOperation): string {
  return operation.revision ?? app.source.targetRevision ?? 'HEAD';
}

/**
 * The environment's request policy for `ctx` (authorizeRequest: channels, requesters, revisions, freeze windows with
 * break-glass), without side effects: what requestSync would refuse, before anything is posted or audited.
 * `app`/`env` undefined: unknown application / no environment (then anything goes).
 */
export async function checkRequest(
  deps: Pick<ApprovalDeps, 'findApplication' | 'settings' | 'groups' | 'now'>,
  ctx: Pick<
    SyncRequestContext,
    'application' | 'operation' | 'initiator' | 'channel' | 'breakGlassReason' | 'fromBotMessage'
  > & {
    action?: RequestAction;
  },
): Promise<
  | { kind: 'unknown' }
  | { kind: 'open'; app: Application }
  | { kind: 'decided'; app: Application; env: ResolvedEnvironment; decision: RequestDecision }
> {
  const app = deps.findApplication(ctx.application);
  if (!app) return { kind: 'unknown' };
  const env = environmentFor(deps.settings, app);
  if (!env) return { kind: 'open', app };
  const decision = await authorizeRequest(
    env.settings,
    {
      application: app.name,
      environment: env.name,
      userId: ctx.initiator.userId,
      channel: ctx.channel,
      revisionName: revisionNameOf(app, ctx.operation),
      breakGlassReason: ctx.breakGlassReason,
      now: new Date(deps.now()),
      action: ctx.action ?? (ctx.operation.dryRun ? 'dry-run' : 'sync'),
      ...(ctx.fromBotMessage ? { fromBotMessage: true } : {}),
    },
    deps.groups.isMemberOfAny,
  );
  return { kind: 'decided', app, env, decision };
}

/**
 * The permission a request needs: `delete` for `/sync delete`, `rollback` for `/sync rollback`, `dry-run` for
 * `--dry-run`, else `sync`.
 */
export type RequestAction = 'sync' | 'dry-run' | 'delete' | 'rollback';

export async function requestSync(deps: ApprovalDeps, ctx: SyncRequestContext): Promise<RequestSyncResult> {
  const checked = await checkRequest(deps, {
    ...ctx,
    ...(ctx.deletion ? { action: 'delete' as const } : {}),
    ...(ctx.rollback ? { action: 'rollback' as const } : {}),
  });
  if (checked.kind === 'unknown')
    return {
      kind: 'refused',
      code: 'unknown_application',
      reason: `No application named "${ctx.application}".`,
    };
  if (checked.kind === 'open') return { kind: 'enqueue' };
  const { app, env, decision } = checked;
  const base = {
    application: app.name,
    environment: env.name,
    userId: ctx.initiator.userId,
    channel: ctx.channel,
    ...(ctx.deletion ? { operation: 'delete' as const } : {}),
    ...(ctx.trigger ? { trigger: ctx.trigger } : {}),
  };
  if (!decision.allowed) {
    await deps.audit.append({ ...base, type: 'refused', reason: decision.reason });
    return { kind: 'refused', code: decision.code, reason: decision.reason };
  }
  const breakGlass = decision.breakGlass;
  if (!env.settings.requireApproval) {
    await deps.audit.append({ ...base, type: 'requested', breakGlass: breakGlass?.reason });
    return { kind: 'enqueue', environment: env.name, ...(breakGlass ? { breakGlass } : {}) };
  }
  return postApprovalRequest(deps, ctx, app, env, breakGlass);
}

async function postApprovalRequest(
  deps: ApprovalDeps,
  ctx: SyncRequestContext,
  app: Application,
  env: ResolvedEnvironment,
  breakGlass: BreakGlass | undefined,
): Promise<RequestSyncResult> {
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
    breakGlass: breakGlass?.reason,
    ...(ctx.deletion ? { operation: 'delete' as const } : {}),
    ...(ctx.trigger ? { trigger: ctx.trigger } : {}),
  });
  return { kind: 'approval-posted', requestId: request.id, message };
}

async function newRequest(
  deps: ApprovalDeps,
  ctx: SyncRequestContext,
  app: Application,
  env: ResolvedEnvironment,
  id: string,
  breakGlass: BreakGlass | undefined,
): Promise<ApprovalRequest> {
  // A deletion renders nothing: its plan comes from the live objects the requester confirmed.
  const preview = ctx.deletion
    ? { revision: DELETION_REVISION, plan: EMPTY_PLAN }
    : await deps.preview(app, ctx.operation);
  const now = deps.now();
  return {
    id,
    application: app.name,
    environment: env.name,
    operation: ctx.operation,
    revision: preview.revision,
    revisionName: revisionNameOf(app, ctx.operation),
    binding: bindingOf(app.name, preview.revision, ctx.operation, ctx.deletion?.request),
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
  };
}

/** The `revision` of a deletion request (nothing is rendered or applied). */
export const DELETION_REVISION = 'delete';

/** A deletion renders nothing: the plan of no tasks, live state not read, nothing pruned. */
const EMPTY_PLAN = summarizePlan([], false, false);
