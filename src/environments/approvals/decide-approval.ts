/**
 * decideApproval — one Approve/Reject click. The clicking user is the Slack payload's user id; the button value
 * only locates the request, and must agree with the stored request's Application and message. Policy first
 * (approvers, groups, self-approval), then the binding (what would sync now must equal what was requested),
 * then one atomic compare-and-set in Redis decides; on approval the request path (`deps.enqueueApproved`) queues
 * the job into the message's thread.
 */

import { displayRevision } from '../../domain/index.js';
import { formatDiffCounts } from '../../engine/index.js';
import { decodeApprovalButtonValue } from './approval-button.js';
import type { ApprovalDeps } from './approval-deps.js';
import { type ApprovalRecord, bindingOf, type MessageRef, rerunCommandOf } from './approval-request.js';
import { authorizeDecision, type Decision } from './authorize-decision.js';
import { describeStatus, expireRecord, invalidateRecord } from './close-approval.js';
import { runApprovedResourceAction } from './resource-action-approval.js';

export interface DecisionClick {
  decision: Decision;
  /** The button's value, as received (untrusted). */
  value: string | undefined;
  /** `body.user.id` of the block_actions payload. */
  userId: string;
  /** Channel and ts of the message whose button was clicked (`container`). */
  channel: string;
  messageTs: string;
}

export type DecisionResult =
  | { kind: 'refused'; reason: string }
  | { kind: 'recorded'; approvals: number; required: number }
  | { kind: 'approved'; jobId?: string }
  | { kind: 'rejected' };

export async function decideApproval(deps: ApprovalDeps, click: DecisionClick): Promise<DecisionResult> {
  const record = await locate(deps, click);
  if (typeof record === 'string') return refuse(deps, click, record);
  const { request } = record;
  if (record.status !== 'pending') return refuse(deps, click, describeStatus(record), record);
  if (deps.now() >= Date.parse(request.expiresAt)) {
    await expireRecord(deps, record);
    return refuse(deps, click, `This request expired. Run ${rerunCommandOf(request)} again.`, record);
  }
  const env = deps.settings.environments[request.environment];
  if (!env) return refuse(deps, click, `Environment ${request.environment} is no longer configured.`, record);
  const auth = await authorizeDecision(
    env,
    {
      ...click,
      requesterId: request.requester.userId,
      application: request.application,
      environment: request.environment,
      ...(request.resourceAction ? { what: 'resource action' } : {}),
    },
    // Membership is asked of Slack now (a removed approver is refused at once; Slack down: refused, try again).
    deps.groups.isMemberOfAnyNow,
  );
  if (!auth.allowed) return refuse(deps, click, auth.reason, record);
  if (click.decision === 'approve') {
    const changed = await changedSinceRequest(deps, record);
    if (changed) {
      await invalidateRecord(deps, record, changed);
      return refuse(deps, click, `${changed} Run ${rerunCommandOf(request)} again.`, record);
    }
  }
  return applyDecision(deps, record, click);
}

/** The request the click points at, or why it cannot be used. */
async function locate(deps: ApprovalDeps, click: DecisionClick): Promise<ApprovalRecord | string> {
  const value = decodeApprovalButtonValue(click.value);
  if (!value) return 'This button does not belong to a wavesync approval request.';
  const record = await deps.store.get(value.requestId);
  const bound =
    record !== undefined &&
    record.request.application === value.application &&
    sameMessage(record.message, click);
  return bound
    ? record
    : 'This button does not match the approval request it is attached to; nothing was changed.';
}

function sameMessage(message: MessageRef | undefined, click: DecisionClick): boolean {
  return message !== undefined && message.channel === click.channel && message.ts === click.messageTs;
}

/** A sentence when the revision or plan inputs changed since the request, else undefined. */
async function changedSinceRequest(deps: ApprovalDeps, record: ApprovalRecord): Promise<string | undefined> {
  const { request } = record;
  const app = deps.findApplication(request.application);
  if (!app) return `Application ${request.application} no longer exists.`;
  // A deletion binds no revision; the worker re-checks the Delete=confirm objects against the confirmed plan.
  // A resource action renders nothing: it runs on the live object as it is when approved (as Argo CD's would).
  if (request.deletion || request.resourceAction) return undefined;
  const preview = await deps.preview(app, request.operation);
  if (bindingOf(app.name, preview.revision, request.operation) !== request.binding) {
    return `What would be synced changed since the request (revision ${displayRevision(request.revision)} → ${displayRevision(preview.revision)}); the request is invalidated.`;
  }
  // The approvers saw a live diff: approving is bound to it too. Another diff now (a live edit, a new object, a
  // changed Secret key) means they would approve something they have not seen.
  const now = preview.diffSummary;
  if (request.diff && now && now.fingerprint !== request.diff.fingerprint) {
    return `The live state changed since the request (the diff shown was "${formatDiffCounts(request.diff.counts)}", it is now "${formatDiffCounts(now.counts)}"); the request is invalidated.`;
  }
  return undefined;
}

async function applyDecision(
  deps: ApprovalDeps,
  record: ApprovalRecord,
  click: DecisionClick,
): Promise<DecisionResult> {
  const { request } = record;
  const outcome = await deps.store.decide(request.id, click.userId, click.decision, deps.now());
  const fresh = (await deps.store.get(request.id)) ?? record;
  const base = {
    application: request.application,
    environment: request.environment,
    requestId: request.id,
    userId: click.userId,
    channel: click.channel,
    messageTs: click.messageTs,
  };
  switch (outcome.kind) {
    case 'approved':
      await deps.audit.append({ ...base, type: 'approved', revision: request.revision });
      await updateMessage(deps, fresh);
      if (request.resourceAction) {
        await runApprovedResourceAction(deps, fresh);
        return { kind: 'approved' };
      }
      return { kind: 'approved', ...(await deps.enqueueApproved(deps, fresh)) };
    case 'recorded':
      await deps.audit.append({ ...base, type: 'approval-recorded' });
      await updateMessage(deps, fresh);
      return { kind: 'recorded', approvals: outcome.approvals.length, required: request.requiredApprovals };
    case 'rejected':
      await deps.audit.append({ ...base, type: 'rejected' });
      await updateMessage(deps, fresh);
      await deps.onClosed?.({ ...fresh, status: 'rejected', decidedBy: fresh.decidedBy ?? click.userId });
      return { kind: 'rejected' };
    case 'already-approved':
      return refuse(deps, click, 'You already approved this request; another approver is needed.', fresh);
    case 'expired':
      await expireRecord(deps, fresh, true);
      return refuse(deps, click, `This request expired. Run ${rerunCommandOf(request)} again.`, fresh);
    default:
      return refuse(deps, click, describeStatus(fresh), fresh);
  }
}

async function updateMessage(deps: ApprovalDeps, record: ApprovalRecord): Promise<void> {
  if (record.message) await deps.messenger.updateApproval({ ...record, message: record.message });
}

async function refuse(
  deps: ApprovalDeps,
  click: DecisionClick,
  reason: string,
  record?: ApprovalRecord,
): Promise<DecisionResult> {
  await deps.messenger.tellUser(click.channel, click.userId, reason);
  if (record) {
    await deps.audit.append({
      type: 'decision-refused',
      application: record.request.application,
      requestId: record.request.id,
      userId: click.userId,
      channel: click.channel,
      messageTs: click.messageTs,
      reason,
    });
  }
  return { kind: 'refused', reason };
}
