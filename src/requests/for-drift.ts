/**
 * The request path's entry point for origin `self-heal`, for src/drift/ only (dependency-cruiser
 * `request-origins-only-from-their-owner`): drift detection owns that authorization — the detector decided
 * selfHealAllowed (`syncPolicy.automated.selfHeal` and the environment's autoSyncAllowed) before it asks. Queued
 * as asked (no gate, no approval: self-heal is never allowed where approval is required), with a fresh request key
 * `selfheal:<application>:<uuid>`, logged `self-heal sync queued` and audited `self-heal`.
 */
import type { EnqueueResult } from '../queue/index.js';
import { type RequestSyncDeps, requestSyncAnyOrigin, type SyncAsk } from './request-sync.js';

/** The producer, and where the sync is audited and logged. */
export type SelfHealRequestDeps = RequestSyncDeps['self-heal'];

/** The SyncRequest without its request key (made here), and why (the audit log's reason, selfHealReason). */
export type SelfHealAsk = Omit<Extract<SyncAsk, { origin: 'self-heal' }>, 'origin'>;

/** @throws what enqueueSync throws (the drift detector forgets the episode's start and tries again next tick). */
export function requestSelfHealSync(deps: SelfHealRequestDeps, ask: SelfHealAsk): Promise<EnqueueResult> {
  return requestSyncAnyOrigin(deps, { origin: 'self-heal', ...ask });
}
