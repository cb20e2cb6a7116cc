/**
 * The request path for origin `self-heal`, for src/drift/ only (dependency-cruiser
 * `request-origins-only-from-their-owner`): drift detection owns that authorization — the detector decided
 * selfHealAllowed (`syncPolicy.automated.selfHeal` and the environment's autoSyncAllowed) before it asks. Queued
 * as asked (no gate, no approval: self-heal is never allowed where approval is required), with a fresh request key
 * `selfheal:<application>:<uuid>`, logged `self-heal sync queued` and audited `self-heal`.
 */
import { randomUUID } from 'node:crypto';
import type { AuditEntry } from '../environments/index.js';
import type { Logger } from '../logger.js';
import type { EnqueueResult, SyncJob } from '../queue/index.js';
import type { EnqueuePort } from './enqueue-port.js';

/** The producer, and where the sync is audited and logged. */
export interface SelfHealRequestDeps {
  queue: EnqueuePort;
  /** Records the sync in the Application's audit log (`self-heal`; no person asked for it); optional. */
  audit?(entry: AuditEntry): Promise<unknown>;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

/** The SyncJob without its request key (made here), and why (the audit log's reason, selfHealReason). */
export interface SelfHealAsk {
  request: Omit<SyncJob, 'requestKey'>;
  reason: string;
}

/** @throws what enqueueSync throws (the drift detector forgets the episode's start and tries again next tick). */
export async function requestSelfHealSync(
  deps: SelfHealRequestDeps,
  ask: SelfHealAsk,
): Promise<EnqueueResult> {
  const { request } = ask;
  const application = request.application;
  const result = await deps.queue.enqueueSync({
    ...request,
    requestKey: `selfheal:${application}:${randomUUID()}`,
  });
  deps.logger?.info(
    { application, jobId: result.jobId, prune: request.operation.prune },
    'self-heal sync queued',
  );
  const target = request.target;
  await deps
    .audit?.({
      type: 'self-heal',
      trigger: 'selfHeal',
      application,
      jobId: result.jobId,
      reason: ask.reason,
      ...(target ? { channel: target.channel, messageTs: target.threadTs } : {}),
    })
    .catch((err: unknown) => deps.logger?.warn({ err, application }, 'self-heal not audited'));
  return result;
}
