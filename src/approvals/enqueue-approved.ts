/**
 * Queue an approved request (its message already shows the approval): the job's report target is the approval
 * message, so the sync's header and thread continue right there. The request id is the queue's idempotency key, so a retry never queues twice.
 */
import { BotError } from '../domain/errors.js';
import type { ApprovalDeps } from './approval-deps.js';
import { type ApprovalRecord, rerunCommandOf } from './approval-request.js';
import { mentionOf } from './principal-mentions.js';

export async function enqueueApproved(
  deps: ApprovalDeps,
  record: ApprovalRecord,
): Promise<{ jobId?: string }> {
  const { request, message } = record;
  const base = { application: request.application, environment: request.environment, requestId: request.id };
  const approvers = record.approvals.map((a) => mentionOf(a.userId)).join(', ');
  try {
    const queued = await deps.queue.enqueueSync({
      application: request.application,
      operation: request.operation,
      initiator: request.requester,
      target: message ? { channel: message.channel, threadTs: message.ts } : undefined,
      requestKey: `approval-${request.id}`,
      ...(request.deletion ? { deletion: request.deletion.request } : {}),
    });
    await deps.store.recordJob(request.id, queued.jobId);
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
