/**
 * The failure notifier's once-only rules on NotificationMarks, in this process (memoryNotificationMarks, with the
 * Redis marks' 30-day expiry on a clock the test moves); test/integration/approvals/failure-notifier.test.ts runs
 * the same notifier on Redis and the Slack adapter.
 */
import { describe, expect, it } from 'vitest';
import { healthyEvent, runNotifierJob } from '../../../test/support/notifier-job.js';
import { testApplication } from '../../../test/support/test-application.js';
import type { OperationState, SyncEvent } from '../../domain/index.js';
import { parseSettings } from '../../settings/index.js';
import type { AuditEntry, AuditLog, AuditRecord } from '../audit-log.js';
import type { NotificationPoster } from './failure-notice.js';
import { createFailureNotifier } from './failure-notifier.js';
import { memoryNotificationMarks, NOTIFIED_TTL_SECONDS } from './notification-marks.js';

const settings = parseSettings(
  [
    'environments:',
    '  production:',
    '    notifications: { channel: C0ALERTS }',
    '    subscriptions: { on-deployed: [C0DEPLOYS] }',
  ].join('\n'),
  '/etc/wavesync/wavesync.yaml',
);
const web = testApplication({
  name: 'web',
  source: { repoURL: 'https://git.example.com/web.git', path: 'web' },
  labels: { 'wavesync.io/environment': 'production' },
});
const at = '2026-11-29T10:00:00.000Z';
const revision = '3f9c2e1aa0b4c5d6e7f8091a2b3c4d5e6f708192';

function completed(phase: OperationState['phase']): SyncEvent {
  const state: OperationState = {
    operation: { prune: false, dryRun: false, syncOptions: [] },
    phase,
    message: phase === 'Succeeded' ? 'successfully synced' : 'hook failed',
    syncResult: { revision, resources: [] },
    startedAt: at,
  };
  return { type: 'OperationCompleted', at, phase, message: state.message, durationMs: 10, state };
}
const healthy = healthyEvent(at);

/** The notifier on memory marks, a poster recording "<kind> <channel> <job>" and refusing while `refusing` > 0. */
function setup() {
  const clock = { now: Date.parse(at) };
  const posted: string[] = [];
  const errors: unknown[] = [];
  const audit: AuditRecord[] = [];
  let refusing = 0;
  const deliver = (line: string) => {
    if (refusing > 0) {
      refusing--;
      return Promise.reject(new Error('internal_error'));
    }
    posted.push(line);
    return Promise.resolve();
  };
  const poster: NotificationPoster = {
    permalink: async () => undefined,
    postFailure: (channel, notice) => deliver(`${notice.kind} ${channel} ${notice.jobId}`),
    postRecovery: (channel, notice) => deliver(`recovered ${channel} ${notice.jobId}`),
    postNotice: (channel, notice) => deliver(`${notice.trigger} ${channel} ${notice.jobId}`),
  };
  const auditLog: AuditLog = {
    append: async (entry: AuditEntry) => {
      audit.push({ ...entry, id: String(audit.length), at });
      return String(audit.length - 1);
    },
    read: async (application, limit = 20) =>
      audit
        .filter((r) => r.application === application)
        .reverse()
        .slice(0, limit),
  };
  const notifier = createFailureNotifier({
    marks: memoryNotificationMarks(() => clock.now),
    settings,
    findApplication: (name) => (name === 'web' ? web : undefined),
    store: { requestIdForJob: async () => undefined, get: async () => undefined },
    audit: auditLog,
    poster,
    onError: (error) => errors.push(error),
  });
  const run = (jobId: string, events: SyncEvent[]) => runNotifierJob(notifier, 'web', jobId, events);
  return { clock, posted, errors, run, refuse: (n: number) => (refusing = n) };
}

describe('src/environments/notifications/failure-notifier (memory marks)', () => {
  it('when one failed job is reported three times, then it is announced once; the next good sync recovers once', async () => {
    const { posted, errors, run } = setup();

    for (let i = 0; i < 3; i++) await run('job-1', [completed('Failed')]);
    await run('job-2', [completed('Succeeded'), healthy]);
    await run('job-3', [completed('Succeeded')]);

    expect(posted).toEqual([
      'failed C0ALERTS job-1',
      'on-deployed C0DEPLOYS job-2',
      'recovered C0ALERTS job-2',
    ]);
    expect(errors).toEqual([]);
  });

  it('when Slack refuses a notice, then the claim is released and a retry of the job delivers it once', async () => {
    const { posted, errors, run, refuse } = setup();

    refuse(1);
    await run('job-1', [completed('Failed')]);
    await run('job-1', [completed('Failed')]);
    await run('job-1', [completed('Failed')]);
    refuse(1);
    await run('job-2', [completed('Succeeded'), healthy]);
    await run('job-2', [completed('Succeeded'), healthy]);

    expect(posted).toEqual([
      'failed C0ALERTS job-1',
      'recovered C0ALERTS job-2',
      'on-deployed C0DEPLOYS job-2',
    ]);
    expect(errors).toHaveLength(2);
  });

  it('when a revision is deployed again, then on-deployed is not notified within NOTIFIED_TTL_SECONDS, and is after', async () => {
    const { clock, posted, run } = setup();

    await run('job-1', [completed('Succeeded'), healthy]);
    await run('job-2', [completed('Succeeded'), healthy]);
    clock.now += NOTIFIED_TTL_SECONDS * 1000 - 1;
    await run('job-3', [completed('Succeeded'), healthy]);
    clock.now += 1;
    await run('job-4', [completed('Succeeded'), healthy]);

    expect(posted).toEqual(['on-deployed C0DEPLOYS job-1', 'on-deployed C0DEPLOYS job-4']);
  });
});
