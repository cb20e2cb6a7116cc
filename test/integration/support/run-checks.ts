/**
 * Checks over recorded runs: per application, a run of one job must finish before another job's run starts
 * (a job killed mid-run may start again — that is a resume, not an overlap).
 */
import type { RunRecord } from './recording-runner.js';

/** Violations as readable strings; empty when every application's runs were strictly sequential. */
export function overlaps(runs: readonly RunRecord[]): string[] {
  const current = new Map<string, string>();
  const problems: string[] = [];
  for (const run of runs) {
    const running = current.get(run.application);
    if (run.kind === 'start') {
      if (running && running !== run.jobId)
        problems.push(`${run.application}: ${run.jobId} started while ${running} ran (seq ${run.seq})`);
      current.set(run.application, run.jobId);
    } else {
      if (running !== run.jobId)
        problems.push(`${run.application}: ${run.jobId} finished while not running (seq ${run.seq})`);
      current.delete(run.application);
    }
  }
  return problems;
}

/** Job ids in the order their first run started, for one application. */
export function startOrder(runs: readonly RunRecord[], application: string): string[] {
  const order: string[] = [];
  for (const r of runs)
    if (r.application === application && r.kind === 'start' && !order.includes(r.jobId)) order.push(r.jobId);
  return order;
}
