/**
 * JobLifecycle — optional hooks the worker calls around a job's operation, for work that must follow a sync and
 * survive a crash (App of Apps children: src/app-of-apps/app-of-apps-driver.ts). Both hooks may run more than once for
 * one job (a job resumed after its worker died, a transient retry), so they must be idempotent.
 */
import type { OperationState } from '../domain/index.js';
import type { SyncRequest } from './sync-request.js';

export interface JobLifecycle {
  /** The job has its application's turn and its operation is about to run or resume. */
  started?(job: { jobId: string; request: SyncRequest }): Promise<void>;
  /**
   * The operation reached a final state (also one found persisted on resume) and the job's reporter is closed,
   * but the job is not yet recorded as ended: if this process dies now, the job is delivered again and the hook
   * runs again. A transient error (`isTransientError`) retries the job; any other error is logged and ignored.
   */
  ended?(job: {
    jobId: string;
    request: SyncRequest;
    state: OperationState;
    cancelled: boolean;
  }): Promise<void>;
}

/** One lifecycle calling each of `lifecycles`' hooks in order (every one, even after another threw: then the first error). */
export function combineLifecycles(...lifecycles: JobLifecycle[]): JobLifecycle {
  const each =
    <K extends keyof JobLifecycle>(hook: K) =>
    async (job: Parameters<NonNullable<JobLifecycle[K]>>[0]): Promise<void> => {
      const errors: unknown[] = [];
      for (const lifecycle of lifecycles) {
        const fn = lifecycle[hook] as ((j: typeof job) => Promise<void>) | undefined;
        await fn?.call(lifecycle, job).catch((err: unknown) => errors.push(err));
      }
      if (errors.length > 0) throw errors[0];
    };
  return { started: each('started'), ended: each('ended') };
}
