/**
 * takeTurn — a picked job either becomes its application's running job (it is the head of the line), or goes
 * back to BullMQ's delayed set until the head finishes (which promotes it) or `recheckMs` passes.
 * A head whose BullMQ job is gone or finished without leaving the line (its worker died past the stall limit,
 * or it was removed by hand) is taken out of the line here, so a line can never stay blocked.
 */
import { DelayedError, type Job, type Queue } from 'bullmq';
import { finishAbandoned } from '../finish-abandoned.js';
import type { QueueLogger } from '../store/redis-connections.js';
import type { SyncJobData } from '../sync-queue.js';
import type { SyncReporter } from '../sync-reporter.js';
import type { SyncRequest } from '../sync-request.js';
import type { AcquireResult, AppLine } from './app-line.js';
import { promoteHead } from './promote-head.js';

export interface TurnDeps {
  queue: Queue<SyncJobData>;
  line: AppLine;
  recheckMs: number;
  logger: QueueLogger;
  /** Announces a dead head's end in its thread (finishAbandoned). */
  reporterFactory?: (job: { jobId: string; request: SyncRequest }) => SyncReporter;
}

/**
 * Resolves when the job may run (`acquired`) or has already ended (`finished`); else throws DelayedError. `first`:
 * the answer of an acquire already made (AppLine.registerAndAcquire), taken as the first attempt's.
 */
export async function takeTurn(
  deps: TurnDeps,
  job: Job<SyncJobData>,
  application: string,
  owner: string,
  first?: AcquireResult,
): Promise<Extract<AcquireResult, { kind: 'acquired' | 'finished' }>> {
  const jobId = job.id ?? '';
  for (let attempt = 0; attempt < 5; attempt++) {
    const turn = attempt === 0 && first ? first : await deps.line.acquire(jobId, application, owner);
    if (turn.kind === 'acquired' || turn.kind === 'finished') return turn;
    if (turn.kind === 'unregistered') throw new Error(`job ${jobId} has no record in its application's line`);
    if (!turn.head || !(await removeDeadHead(deps, application, turn.head))) break;
  }
  await job.moveToDelayed(Date.now() + deps.recheckMs, owner);
  // The head may have finished between our check and the move: then nobody else will promote us.
  const [head] = await deps.line.ids(application);
  if (head === jobId) await promoteHead(deps.queue, jobId);
  throw new DelayedError();
}

/** True when `head` was dead and has been taken out of the line. */
async function removeDeadHead(deps: TurnDeps, application: string, head: string): Promise<boolean> {
  const [record] = await deps.line.records([head]);
  const terminal = record && ['completed', 'failed', 'cancelled'].includes(record.status);
  const bullState = terminal ? 'finished' : await deps.queue.getJobState(head);
  if (!terminal && bullState !== 'completed' && bullState !== 'failed' && bullState !== 'unknown')
    return false;
  const message = `Operation ended without result: its BullMQ job is ${bullState} (worker lost)`;
  await finishAbandoned(deps, application, head, message);
  deps.logger.warn({ jobId: head, application, bullState }, 'removed a dead job from the head of the line');
  return true;
}
