/**
 * The last words of an operation that ended outside the engine (the runner threw, attempts ran out, the job was
 * abandoned or stalled beyond the limit): an `OperationCompleted` event with phase Error (Failed when terminated)
 * and the reason, so the job's reporters end its thread — header, failure line, alerts channel — as for any failed
 * sync. Built from the last persisted OperationState when there is one.
 */
import { type OperationState, type SyncEvent, withoutAddresses } from '../domain/index.js';
import { recordedOperation, type SyncRequest } from './sync-request.js';

export function endedOutsideRunner(
  request: SyncRequest,
  last: OperationState | undefined,
  error: string,
  cancelled = false,
): Extract<SyncEvent, { type: 'OperationCompleted' }> {
  // The thread, the header and the alerts channel show it: the error in words, without internal addresses.
  const message = withoutAddresses(error);
  const now = new Date();
  const phase = cancelled ? 'Failed' : 'Error';
  const startedAt = last?.startedAt ?? now.toISOString();
  const operation = recordedOperation(request);
  const state: OperationState = {
    operation: last?.operation ?? operation,
    syncResult: last?.syncResult ?? { revision: operation.revision ?? '', resources: [] },
    startedAt,
    ...(last?.health ? { health: last.health } : {}),
    phase,
    message,
    finishedAt: now.toISOString(),
  };
  return {
    type: 'OperationCompleted',
    at: now.toISOString(),
    phase,
    message,
    durationMs: Math.max(0, now.getTime() - Date.parse(startedAt)),
    state,
  };
}
