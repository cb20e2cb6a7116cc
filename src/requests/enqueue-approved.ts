/**
 * Queue an approved request (its message already shows the approval): the job's report target is the approval
 * message, so the sync's header and thread continue right there. The job id is derived from the request id
 * (`approvalJobId`), so a retry — the click's own, or the sweeper's for a bot that died before recording the job
 * (src/environments/approvals/enqueue-stranded.ts) — never queues twice, however late it comes.
 */
import { BotError } from '../domain/index.js';
import type { ApprovalDeps } from '../environments/index.js';
import { type ApprovalRecord, mentionOf, rerunCommandOf } from '../environments/index.js';
import { derivedJobId, type SyncRequest } from '../queue/index.js';
import type { EnqueuePort } from './enqueue-port.js';

/** What queueing an approved request needs: the approval flow's store, messenger and audit log, and the producer. */
export type ApprovedRequestDeps = Pick<ApprovalDeps, 'store' | 'messenger' | 'audit'> & {
  queue: EnqueuePort;
};

/**
 * requestSync's enqueue step for origin `approved` (its authorization was the approvers' decision). The store is
 * asked again first, by `record.request.id`: only a request it holds as approved is queued, and one whose job is
 * already recorded (a late retry) resolves with that job, queueing nothing. The job, the thread reply and the audit
 * entry are built from the stored record, not from `record` (a caller's copy could differ from what was approved).
 * @throws Error when the store does not hold the request as approved (nothing is queued, noted or audited); what
 * the store throws.
 */
export async function enqueueApproved(
  deps: ApprovedRequestDeps,
  record: ApprovalRecord,
): Promise<{ jobId?: string }> {
  const id = record.request.id;
  const stored = await deps.store.get(id);
  if (stored?.status !== 'approved') {
    const status = stored ? stored.status : 'missing';
    throw new Error(`approval request ${id} is ${status} in the approval store, not approved: not queued`);
  }
  if (stored.jobId) return { jobId: stored.jobId };
  return enqueueStored(deps, stored);
}

/** Queue `stored` — the store's record, never the caller's copy: what was approved is what is queued. */
async function enqueueStored(deps: ApprovedRequestDeps, stored: ApprovalRecord): Promise<{ jobId?: string }> {
  const { request, message } = stored;
  const base = { application: request.application, environment: request.environment, requestId: request.id };
  const approvers = stored.approvals.map((a) => mentionOf(a.userId)).join(', ');
  try {
    const queued = await deps.queue.enqueueSync(queuedOf(stored), { jobId: approvalJobId(request.id) });
    await deps.store.recordJob(request.id, queued.jobId);
    // Queued before by the same request (a retry racing the first attempt): it was announced then.
    if (queued.duplicate) return { jobId: queued.jobId };
    if (message) {
      const what = request.deletion ? 'deletion' : 'sync';
      await deps.messenger.replyInThread(message, `✅ Approved by ${approvers} — ${what} queued.`);
    }
    await deps.audit.append({
      ...base,
      type: 'queued',
      jobId: queued.jobId,
      revision: request.revision,
      ...(request.deletion ? { operation: 'delete' as const } : {}),
    });
    return { jobId: queued.jobId };
  } catch (error) {
    const reason = error instanceof BotError ? error.message : 'the queue is unreachable';
    await deps.store.recordNote(request.id, `approved but not queued: ${reason}`);
    if (message) {
      await deps.messenger.updateApproval({ ...stored, note: `approved but not queued: ${reason}`, message });
      await deps.messenger.replyInThread(
        message,
        `⚠️ Approved by ${approvers}, but not queued: ${reason}. Run ${rerunCommandOf(request)} again.`,
      );
    }
    await deps.audit.append({ ...base, type: 'not-queued', reason });
    return {};
  }
}

/** The job an approved request queues: its deletion, or its sync (a recorded deletion's `operation` is not run). */
function queuedOf({ request, message }: ApprovalRecord): SyncRequest {
  const job = {
    application: request.application,
    initiator: request.requester,
    // A rollout's Application reports as its line in the rollout's thread, where its approval message is.
    target: message && !request.rollout ? { channel: message.channel, threadTs: message.ts } : undefined,
    requestKey: `approval-${request.id}`,
  };
  if (request.deletion) return { ...job, deletion: request.deletion.request };
  return {
    ...job,
    operation: request.operation,
    ...(request.rollback ? { rollback: request.rollback } : {}),
    ...(request.rollout ? { rollout: request.rollout } : {}),
    ...(request.syncTrigger ? { trigger: request.syncTrigger } : {}),
    ...(request.promotion ? { promotion: request.promotion } : {}),
  };
}

/** The job id of an approved request: derived from its id, so it is queued at most once. */
export function approvalJobId(requestId: string): string {
  return derivedJobId('approval', requestId);
}
