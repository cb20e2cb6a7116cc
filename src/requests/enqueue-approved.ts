/**
 * Queue an approved request (its message already shows the approval): the job's report target is the approval
 * message, so the sync's header and thread continue right there. The job id is derived from the request id
 * (`approvalJobId`), so a retry — the click's own, or the sweeper's for a bot that died before recording the job
 * (`enqueueStranded`) — never queues twice, however late it comes.
 */
import { BotError } from '../domain/errors.js';
import type { ApprovalDeps } from '../environments/approvals/approval-deps.js';
import { type ApprovalRecord, rerunCommandOf } from '../environments/approvals/approval-request.js';
import { mentionOf } from '../environments/principal-mentions.js';
import { derivedJobId } from '../queue/derived-job-id.js';

export async function enqueueApproved(
  deps: ApprovalDeps,
  record: ApprovalRecord,
): Promise<{ jobId?: string }> {
  const { request, message } = record;
  const base = { application: request.application, environment: request.environment, requestId: request.id };
  const approvers = record.approvals.map((a) => mentionOf(a.userId)).join(', ');
  try {
    const queued = await deps.queue.enqueueSync(
      {
        application: request.application,
        operation: request.operation,
        initiator: request.requester,
        target: message ? { channel: message.channel, threadTs: message.ts } : undefined,
        requestKey: `approval-${request.id}`,
        ...(request.deletion ? { deletion: request.deletion.request } : {}),
        ...(request.rollback ? { rollback: request.rollback } : {}),
      },
      { jobId: approvalJobId(request.id) },
    );
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
      await deps.messenger.updateApproval({ ...record, note: `approved but not queued: ${reason}`, message });
      await deps.messenger.replyInThread(
        message,
        `⚠️ Approved by ${approvers}, but not queued: ${reason}. Run ${rerunCommandOf(request)} again.`,
      );
    }
    await deps.audit.append({ ...base, type: 'not-queued', reason });
    return {};
  }
}

/** The job id of an approved request: derived from its id, so it is queued at most once. */
export function approvalJobId(requestId: string): string {
  return derivedJobId('approval', requestId);
}

/** An approved request counts as stranded this long after its approval without a recorded job (ms). */
export const STRANDED_AFTER_MS = 10_000;

/**
 * Queue approved requests whose job was never recorded — the bot stopped between storing the approval and
 * queueing — once they are `STRANDED_AFTER_MS` old; the sweeper calls this with the expiry check. Resolves with
 * how many were queued now. A request that is no longer approved, or already has a job or a note, just leaves
 * the to-enqueue set.
 */
export async function enqueueStranded(deps: ApprovalDeps): Promise<number> {
  let queued = 0;
  for (const id of await deps.store.awaitingEnqueue(deps.now() - STRANDED_AFTER_MS)) {
    const record = await deps.store.get(id);
    if (record?.status !== 'approved' || record.jobId || record.note) {
      await deps.store.doneEnqueueing(id);
      continue;
    }
    const { jobId } = await enqueueApproved(deps, record);
    if (jobId) queued += 1;
  }
  return queued;
}
