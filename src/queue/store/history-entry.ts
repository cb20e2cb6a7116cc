/**
 * Build the HistoryEntry of a finished job from its request and last OperationState.
 */
import type { OperationPhase, OperationState } from '../../domain/index.js';
import type { HistoryEntry } from '../sync-queue-client.js';
import { recordedOperation, type SyncRequest } from '../sync-request.js';

export interface HistoryInput {
  jobId: string;
  request: SyncRequest;
  state: OperationState | undefined;
  /** Phase and message when there is no final state (e.g. the runner threw). */
  phase: OperationPhase;
  message: string;
  /** ISO-8601 time the job first acquired its turn. */
  startedAt: string | undefined;
  finishedAt: Date;
}

/** Revision: resolved (syncResult.revision), else requested, else ''. Duration in ms from start to finish. */
export function historyEntry(input: HistoryInput): HistoryEntry {
  const { request, state } = input;
  const finishedAt = state?.finishedAt ?? input.finishedAt.toISOString();
  const startedAt = state?.startedAt ?? input.startedAt ?? finishedAt;
  const entry: HistoryEntry = {
    jobId: input.jobId,
    application: request.application,
    initiator: request.initiator,
    revision: state?.syncResult.revision || recordedOperation(request).revision || '',
    phase: input.phase,
    message: input.message,
    startedAt,
    finishedAt,
    durationMs: Math.max(0, Date.parse(finishedAt) - Date.parse(startedAt)),
  };
  if (state?.health) entry.health = state.health;
  if (state?.syncResult.source) entry.source = state.syncResult.source;
  if (state?.syncResult.sources) entry.sources = state.syncResult.sources;
  if (request.deletion) entry.deletion = true;
  else if (request.operation.dryRun) entry.dryRun = true;
  if (request.rollback) entry.rollback = request.rollback;
  if (request.trigger) entry.trigger = request.trigger;
  if (request.promotion) entry.promotion = request.promotion;
  return entry;
}
