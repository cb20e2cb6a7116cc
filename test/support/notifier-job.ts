/**
 * One job as the worker shows it to a failure notifier: a plain `/sync <application>` by U0PAT (pat) with no
 * Slack thread; its `events` are reported in order, then the reporter is closed (as the worker does at the end).
 */
import type { SyncEvent } from '../../src/domain/index.js';
import type { FailureNotifier } from '../../src/environments/index.js';

export async function runNotifierJob(
  notifier: FailureNotifier,
  application: string,
  jobId: string,
  events: readonly SyncEvent[],
): Promise<void> {
  const reporter = notifier.reporterFor({
    jobId,
    request: {
      application,
      operation: { prune: false, dryRun: false, syncOptions: [] },
      initiator: { userId: 'U0PAT', userName: 'pat' },
      target: undefined,
      requestKey: jobId,
    },
  });
  for (const event of events) await reporter.report(event);
  await reporter.close();
}

/** The engine's HealthAssessed event of an Application found Healthy at `at` (ISO 8601), 5 ms after the sync. */
export function healthyEvent(at: string): SyncEvent {
  return { type: 'HealthAssessed', at, health: { status: 'Healthy' }, afterMs: 5, unhealthy: [] };
}
