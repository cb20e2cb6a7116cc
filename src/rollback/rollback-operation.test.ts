import { describe, expect, it } from 'vitest';
import type { HistoryEntry, JobStatus } from '../queue/index.js';
import { rollbackTargetOfFailure } from './rollback-operation.js';

const SHA = (c: string) => c.repeat(40);

function entry(id: number, phase: HistoryEntry['phase'], revision: string): HistoryEntry {
  return {
    id,
    jobId: `j${id}`,
    application: 'web',
    initiator: { userId: 'U0PAT', userName: 'pat' },
    revision,
    phase,
    message: '',
    startedAt: '2026-12-01T10:00:00Z',
    finishedAt: '2026-12-01T10:01:00Z',
    durationMs: 60_000,
  };
}

/** `web`'s history (newest first) and the jobs still in the queue, by id. */
function queueOf(history: HistoryEntry[], queued: Record<string, Pick<JobStatus, 'application'>> = {}) {
  return {
    history: async (application: string) => (application === 'web' ? history : []),
    jobStatus: async (jobId: string) => queued[jobId] as JobStatus | undefined,
  };
}

describe('src/rollback/rollback-operation', () => {
  const history = [
    entry(3, 'Failed', SHA('c')),
    entry(2, 'Succeeded', SHA('b')),
    entry(1, 'Succeeded', SHA('a')),
  ];

  it('the Roll back button of a recorded failure returns to the newest Succeeded entry before it', async () => {
    const choice = await rollbackTargetOfFailure(queueOf(history), 'web', 'j3');
    expect(choice).toMatchObject({ ok: true, entry: { id: 2, revision: SHA('b') }, history });
  });

  it('a failure still in the queue (not recorded yet) returns to the newest Succeeded entry of all', async () => {
    const choice = await rollbackTargetOfFailure(
      queueOf(history, { j4: { application: 'web' } }),
      'web',
      'j4',
    );
    expect(choice).toMatchObject({ ok: true, entry: { id: 2 } });
  });

  it("a button naming no sync of the Application that wavesync knows, or another Application's, has no target", async () => {
    const queue = queueOf(history, { other: { application: 'shop' } });
    expect(await rollbackTargetOfFailure(queue, 'web', 'forged')).toBeUndefined();
    expect(await rollbackTargetOfFailure(queue, 'web', 'other')).toBeUndefined();
    expect(await rollbackTargetOfFailure(queue, 'web', undefined)).toBeUndefined();
  });
});
