/**
 * Resource actions under approval (`/sync action`, a resource's action button): where the Application's environment
 * says the action needs an approval (`resourceActions.<action>.requireApproval`, else the environment's
 * `requireApproval`), the action is not run but posted as an approval request — which action, on which object, of
 * which Application, what it would write — with the same Approve/Reject buttons, approvers, self-approval rule,
 * expiry and audit as a sync's. Approved, the flow runs it once (`store.claimRun`: the click, or the sweeper for an
 * approval a stopped bot did not finish) through `deps.runResourceAction`, audits `resource-action` with the result
 * and posts it in the message's thread; rejected, expired or withdrawn, it never runs (the message says so).
 * The caller has already checked the `action` permission (authorizeAction) for the requester.
 */
import { randomUUID } from 'node:crypto';
import type { Initiator } from '../../domain/index.js';
import { resourceActionNeedsApproval } from '../../settings/index.js';
import { environmentFor } from '../environment-resolver.js';
import { mentionOf } from '../principal-mentions.js';
import type { ApprovalDeps } from './approval-deps.js';
import {
  type ApprovalRecord,
  type ApprovalRequest,
  describeResourceAction,
  type MessageRef,
  type ResourceActionRef,
  resourceActionBindingOf,
} from './approval-request.js';
import { summarizePlan } from './plan-summary.js';

export interface ResourceActionAsk {
  application: string;
  action: string;
  /** `Kind/name` or `namespace/Kind/name`, as asked. */
  target: string;
  params: Readonly<Record<string, string>>;
  initiator: Initiator;
  channel: string;
  /** Idempotency key of the Slack delivery (trigger id): a redelivery posts no second request. */
  requestKey: string;
  /** What the action would write now (ResourceViews.plan), shown to the approvers. */
  plan: string[];
}

export type ResourceActionGate =
  | { kind: 'proceed' }
  | { kind: 'approval-posted'; requestId: string; message?: MessageRef; duplicate?: boolean }
  | { kind: 'refused'; reason: string };

/** The `revision` of a resource action request (nothing is rendered). */
const RESOURCE_ACTION_REVISION = 'resource-action';

/** True when running `action` on `application` waits for an approval. */
export function resourceActionRequiresApproval(
  deps: Pick<ApprovalDeps, 'findApplication' | 'settings'>,
  application: string,
  action: string,
): boolean {
  const app = deps.findApplication(application);
  const env = app && environmentFor(deps.settings, app);
  return env !== undefined && resourceActionNeedsApproval(env.settings, action);
}

export async function gateResourceAction(
  deps: ApprovalDeps,
  ask: ResourceActionAsk,
): Promise<ResourceActionGate> {
  const app = deps.findApplication(ask.application);
  if (!app) return { kind: 'refused', reason: `No application named "${ask.application}".` };
  const env = environmentFor(deps.settings, app);
  if (!env || !resourceActionNeedsApproval(env.settings, ask.action)) return { kind: 'proceed' };
  let claimed = await deps.store.claimRequestKey(ask.requestKey, randomUUID());
  if (claimed.existing) {
    const existing = await deps.store.get(claimed.requestId);
    if (!existing || existing.status === 'pending') {
      return {
        kind: 'approval-posted',
        requestId: claimed.requestId,
        duplicate: true,
        ...(existing?.message ? { message: existing.message } : {}),
      };
    }
    claimed = await deps.store.claimRequestKey(ask.requestKey, randomUUID(), true);
  }
  const ref: ResourceActionRef = {
    action: ask.action,
    target: ask.target,
    params: { ...ask.params },
    plan: ask.plan,
  };
  const now = deps.now();
  const request: ApprovalRequest = {
    id: claimed.requestId,
    application: app.name,
    environment: env.name,
    operation: { prune: false, dryRun: false, syncOptions: [] },
    revision: RESOURCE_ACTION_REVISION,
    revisionName: RESOURCE_ACTION_REVISION,
    binding: resourceActionBindingOf(app.name, ref),
    requester: ask.initiator,
    channel: ask.channel,
    approvers: env.settings.approvers,
    requiredApprovals: env.settings.requiredApprovals,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + env.settings.approvalExpiryMinutes * 60_000).toISOString(),
    plan: summarizePlan([], false, false),
    resourceAction: ref,
  };
  await deps.store.create(request);
  const message = await deps.messenger.postApproval({ request, status: 'pending', approvals: [] });
  await deps.store.attachMessage(request.id, message);
  await deps.audit.append({
    type: 'requested',
    application: app.name,
    environment: env.name,
    userId: ask.initiator.userId,
    channel: message.channel,
    messageTs: message.ts,
    requestId: request.id,
    resourceAction: describeResourceAction(ref),
  });
  return { kind: 'approval-posted', requestId: request.id, message };
}

/**
 * Run an approved resource action request, once: only the caller that claims the run writes anything; the result
 * (or why it failed, or that this process cannot run actions) is audited, noted on the request (the message's
 * footer) and posted in its thread.
 */
export async function runApprovedResourceAction(
  deps: ApprovalDeps,
  record: ApprovalRecord,
): Promise<{ ran: boolean }> {
  const { request } = record;
  const ref = request.resourceAction;
  if (!ref || record.status !== 'approved') return { ran: false };
  if (!(await deps.store.claimRun(request.id, deps.now()))) return { ran: false };
  const what = describeResourceAction(ref);
  const approvedBy = record.approvals.map((a) => mentionOf(a.userId)).join(', ');
  let phase: 'Succeeded' | 'Failed';
  let result: string;
  if (!deps.runResourceAction) {
    phase = 'Failed';
    result = 'this wavesync process has no cluster access to run resource actions';
  } else {
    try {
      const outcome = await deps.runResourceAction({
        application: request.application,
        action: ref.action,
        target: ref.target.replace(/^\//, ''),
        params: ref.params,
      });
      phase = 'Succeeded';
      result = outcome.changes.join(', ');
    } catch (err) {
      phase = 'Failed';
      result = err instanceof Error ? err.message : String(err);
    }
  }
  await deps.audit.append({
    type: 'resource-action',
    application: request.application,
    environment: request.environment,
    requestId: request.id,
    userId: request.requester.userId,
    channel: record.message?.channel ?? request.channel,
    ...(record.message ? { messageTs: record.message.ts } : {}),
    resourceAction: what,
    phase,
    reason: result,
  });
  const note = phase === 'Succeeded' ? `ran: ${result}` : `not run: ${result}`;
  await deps.store.recordNote(request.id, note);
  const fresh = (await deps.store.get(request.id)) ?? { ...record, note };
  if (fresh.message) {
    await deps.messenger.updateApproval({ ...fresh, message: fresh.message });
    const [act, app, said] = [escapeText(what), escapeText(request.application), escapeText(result)];
    await deps.messenger.replyInThread(
      fresh.message,
      phase === 'Succeeded'
        ? `⚙️ Approved by ${approvedBy}: ran *${act}* on *${app}* for ${mentionOf(request.requester.userId)}: ${said}`
        : `⚠️ Approved by ${approvedBy}, but *${act}* on *${app}* failed: ${said}`,
    );
  }
  return { ran: phase === 'Succeeded' };
}

/** Text shown as Slack mrkdwn: `&`, `<` and `>` escaped as Slack asks, so names and errors cannot mention or link. */
function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
