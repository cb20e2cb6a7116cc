/**
 * Wake the new head of a line: a job waiting its turn sits in BullMQ's delayed set, so it is promoted to
 * run now instead of at its next re-check.
 */
import type { Queue } from 'bullmq';

/** Promote `jobId` if it is delayed; any other state (already waiting or active, gone) is left alone. */
export async function promoteHead(queue: Queue, jobId: string): Promise<void> {
  try {
    const job = await queue.getJob(jobId);
    if (job && (await job.isDelayed())) await job.promote();
  } catch {
    // Raced with the job's own re-check (it moved out of the delayed set meanwhile): nothing to do.
  }
}
