/**
 * The request path for origin `automated`, for src/revisions/ only (dependency-cruiser
 * `request-origins-only-from-their-owner`): the revision watcher owns that authorization — it saw a new revision of
 * an Application with `syncPolicy.automated` (or one never synced) and asked src/environments automatedSyncDecision
 * whether the environment lets it sync now. Queued with the request key `automated:<key>` and a job id derived from
 * `key` (application and revision: a webhook racing a poll, or two bot replicas, queue one job), logged and audited
 * `automated-sync` with its trigger; where the environment requires approval, an approval request is posted
 * instead (RequestApprovals.requestAutomatedApproval) and nothing is queued until it is approved.
 */
import type { AuditEntry, RequestApprovals } from '../environments/index.js';
import type { Logger } from '../logger.js';
import { derivedJobId, type EnqueueResult, type SyncJob } from '../queue/index.js';
import type { EnqueuePort } from './enqueue-port.js';

export interface AutomatedRequestDeps {
  queue: EnqueuePort;
  /** Posts an automated sync's approval request (RequestApprovals.requestAutomatedApproval). */
  approvals: Pick<RequestApprovals, 'requestAutomatedApproval'>;
  /** Records the sync in the Application's audit log (`automated-sync`, with its trigger); optional. */
  audit?(entry: AuditEntry): Promise<unknown>;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

/**
 * A new revision of an automated Application (a push or a poll saw it move, or it was never synced): `key` names
 * the Application and revision (the request key and the job id derive from it); `approval`: the environment
 * requires one, so an approval request is posted instead (`channel` is where).
 */
export interface AutomatedAsk {
  request: Omit<SyncJob, 'requestKey'> & { trigger: string };
  key: string;
  approval?: { channel: string };
}

/** `pending`: an approval request took it over. */
export type AutomatedOutcome =
  | { kind: 'queued'; result: EnqueueResult }
  | { kind: 'pending' | 'refused'; reason?: string };

/** @throws what enqueueSync or the approval flow throws (the watcher keeps the previous revision and tries again). */
export async function requestAutomatedSync(
  deps: AutomatedRequestDeps,
  ask: AutomatedAsk,
): Promise<AutomatedOutcome> {
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
