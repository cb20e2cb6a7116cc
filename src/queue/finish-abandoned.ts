/**
 * End a job whose worker can no longer end it (the worker died beyond BullMQ's stall limit, the job was
 * removed by hand, or it failed outside the runner): record it as failed with phase Error and take it out of
 * its application's line, so the line moves on. With `reporterFactory`, a job ended now is also announced: a
 * reporter of the job gets `OperationCompleted` (Error, `message`) and ends the thread (header, failure line,
 * alerts channel) — nobody else would.
 */
import type { Queue } from 'bullmq';
import { endedOutsideRunner } from './ended-outside-runner.js';
import type { AppLine } from './line/app-line.js';
import { promoteHead } from './line/promote-head.js';
import { historyEntry } from './store/history-entry.js';
import type { SyncJobData } from './sync-queue.js';
import type { SyncReporter } from './sync-reporter.js';
import type { SyncRequest } from './sync-request.js';

/** Resolves true when the job was still unfinished and has now been ended. */
export async function finishAbandoned(
  deps: {
    queue: Queue<SyncJobData>;
    line: AppLine;
    reporterFactory?: (job: { jobId: string; request: SyncRequest }) => SyncReporter;
  },
  application: string,
  jobId: string,
  message: string,
): Promise<boolean> {
  const [record] = await deps.line.records([jobId]);
  const history = record
    ? historyEntry({
        jobId,
        request: record.request,
        state: record.state,
        phase: 'Error',
        message,
        startedAt: record.startedAt,
        finishedAt: new Date(),
      })
    : undefined;
  const finished = await deps.line.finish({
    jobId,
    application,
    status: 'failed',
    message,
    history,
    owner: undefined,
  });
  if (finished?.head) await promoteHead(deps.queue, finished.head);
  const finishedNow = finished?.finishedNow ?? false;
  if (finishedNow && record && deps.reporterFactory) {
    const reporter = deps.reporterFactory({ jobId, request: record.request });
    try {
      await reporter.report(endedOutsideRunner(record.request, record.state, message));
    } finally {
      await reporter.close();
    }
  }
  return finishedNow;
}
