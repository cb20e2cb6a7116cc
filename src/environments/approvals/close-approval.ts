/**
 * Closing a pending request without a decision: expiry (the sweeper, or a click after the deadline) and
 * invalidation (what would be synced changed). Each is a compare-and-set, so the message is updated and the
 * audit entry written once, by whoever won.
 */

import { mentionOf } from '../principal-mentions.js';
import type { ApprovalDeps } from './approval-deps.js';
import { type ApprovalRecord, rerunCommandOf } from './approval-request.js';

/**
 * Expire `record` (unless someone else already closed it) and show it as expired. `alreadyClosed` = true when
 * the caller's own compare-and-set already moved it to expired.
 */
export async function expireRecord(
  deps: ApprovalDeps,
  record: ApprovalRecord,
  alreadyClosed = false,
): Promise<void> {
  const won = alreadyClosed || (await deps.store.expire(record.request.id, deps.now()));
  if (won) await showClosed(deps, record, 'expired');
}

/** Invalidate `record` with `note` and show why; true when this call invalidated it. */
export async function invalidateRecord(
  deps: ApprovalDeps,
  record: ApprovalRecord,
  note: string,
): Promise<boolean> {
  if (!(await deps.store.invalidate(record.request.id, note, deps.now()))) return false;
  await showClosed(deps, record, 'invalidated', note);
  return true;
}

/**
 * Withdraw `record` for `userId` (`/sync cancel`; the caller has authorized it) with the reason they gave: the
 * message shows "Withdrawn by @x: reason" and the audit log a `cancelled` entry. False when it was no longer
 * pending (decided, expired or withdrawn meanwhile).
 */
export async function withdrawRecord(
  deps: ApprovalDeps,
  record: ApprovalRecord,
  by: { userId: string; channel: string; reason?: string },
): Promise<boolean> {
  const { request } = record;
  if (!(await deps.store.withdraw(request.id, by.userId, by.reason ?? '', deps.now()))) return false;
  const fresh = (await deps.store.get(request.id)) ?? {
    ...record,
    status: 'withdrawn' as const,
    decidedBy: by.userId,
  };
  if (fresh.message) await deps.messenger.updateApproval({ ...fresh, message: fresh.message });
  await deps.audit.append({
    type: 'cancelled',
    application: request.application,
    environment: request.environment,
    requestId: request.id,
    userId: by.userId,
    channel: by.channel,
    messageTs: fresh.message?.ts,
    ...(by.reason ? { reason: by.reason } : {}),
  });
  await deps.onClosed?.({ ...fresh, status: 'withdrawn', decidedBy: fresh.decidedBy ?? by.userId });
  return true;
}

/** Re-render the closed request's message and write the audit entry (done once, by the compare-and-set winner). */
async function showClosed(
  deps: ApprovalDeps,
  record: ApprovalRecord,
  status: 'expired' | 'invalidated',
  note?: string,
): Promise<void> {
  const { request } = record;
  const fresh = (await deps.store.get(request.id)) ?? { ...record, status, ...(note ? { note } : {}) };
  if (fresh.message) await deps.messenger.updateApproval({ ...fresh, message: fresh.message });
  await deps.audit.append({
    type: status,
    application: request.application,
    environment: request.environment,
    requestId: request.id,
    channel: fresh.message?.channel,
    messageTs: fresh.message?.ts,
    reason: note,
  });
  await deps.onClosed?.({ ...fresh, status, ...(note && !fresh.note ? { note } : {}) });
}

/** Expire every pending request whose deadline passed; resolves with how many this call expired. */
export async function expireDue(deps: ApprovalDeps): Promise<number> {
  let expired = 0;
  for (const id of await deps.store.dueForExpiry(deps.now())) {
    const record = await deps.store.get(id);
    if (record?.status !== 'pending') continue;
    if (await deps.store.expire(id, deps.now())) {
      await expireRecord(deps, record, true);
      expired += 1;
    }
  }
  return expired;
}

/** Why a closed request takes no more clicks. */
export function describeStatus(record: ApprovalRecord): string {
  const by = record.decidedBy ? ` by ${mentionOf(record.decidedBy)}` : '';
  switch (record.status) {
    case 'approved':
      return `This request was already approved${by}.`;
    case 'rejected':
      return record.decidedBy !== undefined && record.decidedBy === record.request.requester.userId
        ? `This request was withdrawn${by}.`
        : `This request was rejected${by}.`;
    case 'expired':
      return `This request expired. Run ${rerunCommandOf(record.request)} again.`;
    case 'withdrawn':
      return `This request was withdrawn${by}.`;
    case 'invalidated':
      return `This request was invalidated: ${record.note ?? 'what would be synced changed'}. Run ${rerunCommandOf(record.request)} again.`;
    default:
      return 'This request is still waiting for approval.';
  }
}
