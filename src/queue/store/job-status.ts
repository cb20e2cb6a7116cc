/**
 * Build the caller-facing views (JobStatus, JobAhead) from job records and the application's line.
 */
import type { JobRecord } from '../line/app-line.js';
import type { JobAhead, JobStatus } from '../sync-queue-client.js';
import { recordedOperation } from '../sync-request.js';

/** JobStatus of one record; `position` is its index in the line when it is still in it. */
export function toJobStatus(record: JobRecord, position: number | undefined): JobStatus {
  const status: JobStatus = {
    jobId: record.jobId,
    application: record.application,
    state: record.status,
    initiator: record.request.initiator,
    target: record.request.target,
    operation: recordedOperation(record.request),
    enqueuedAt: record.enqueuedAt,
  };
  if (position !== undefined && position >= 0) status.position = position;
  if (record.state) status.operationState = record.state;
  if (record.wave && record.status === 'active') status.currentWave = record.wave;
  return status;
}

/** The jobs ahead of position `position` in a line of records. */
export function aheadOf(line: readonly (JobRecord | undefined)[], position: number): JobAhead[] {
  const ahead: JobAhead[] = [];
  for (const record of line.slice(0, Math.max(0, position))) {
    if (!record) continue;
    const entry: JobAhead = {
      jobId: record.jobId,
      initiator: record.request.initiator,
      state: record.status === 'active' ? 'active' : 'waiting',
    };
    if (record.status === 'active' && record.wave) entry.wave = record.wave;
    if (record.status === 'active' && record.state) entry.phase = record.state.phase;
    ahead.push(entry);
  }
  return ahead;
}
