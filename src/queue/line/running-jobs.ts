/**
 * The jobs a worker is running now: the AbortController of each (aborted only by a cancel = terminate the
 * operation) and whether BullMQ reported its lock lost (then the operation stops at its next `persist`
 * without terminating, and the job's new owner resumes it).
 */
export interface RunningJob {
  controller: AbortController;
  lockLost: boolean;
}

export type RunningJobs = Map<string, RunningJob>;
