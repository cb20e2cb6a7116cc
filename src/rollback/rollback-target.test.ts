import { describe, expect, it } from 'vitest';
import type { HistoryEntry, JobStatus } from '../queue/index.js';
import { canRollBack, rollbackRefusal, rollbackTargetOfFailure } from './rollback-operation.js';
import { chooseRollbackTarget, rollbackTargetBefore } from './rollback-target.js';

const SHA = (c: string) => c.repeat(40);

function entry(
  id: number | undefined,
  phase: HistoryEntry['phase'],
  revision: string,
  more = {},
): HistoryEntry {
  return {
    ...(id === undefined ? {} : { id }),
    jobId: `j${id}`,
    application: 'web',
    initiator: { userId: 'U0PAT', userName: 'pat' },
    revision,
    phase,
    message: '',
    startedAt: '2026-12-01T10:00:00Z',
    finishedAt: '2026-12-01T10:01:00Z',
    durationMs: 60_000,
    ...more,
  };
}

describe('src/rollback/rollback-target', () => {
  it('default: the newest Succeeded entry before the current one, skipping failures, dry runs and deletions', () => {
    const history = [
      entry(44, 'Failed', SHA('d')),
      entry(43, 'Succeeded', SHA('c'), { dryRun: true }),
      entry(42, 'Succeeded', SHA('c'), { deletion: true }),
      entry(41, 'Succeeded', SHA('b')),
      entry(40, 'Succeeded', SHA('a')),
    ];
    const choice = chooseRollbackTarget(history);
    expect(choice.ok && choice.entry.id).toBe(41);
    // The current one is never its own target, even when it Succeeded.
    const after = chooseRollbackTarget([entry(45, 'Succeeded', SHA('e')), ...history]);
    expect(after.ok && after.entry.id).toBe(44 - 3);
  });

  it('an explicit id must name a Succeeded real sync with a revision', () => {
    const history = [
      entry(3, 'Failed', SHA('c')),
      entry(2, 'Succeeded', SHA('b')),
      entry(1, 'Error', SHA('a')),
    ];
    expect(chooseRollbackTarget(history, 2)).toMatchObject({
      ok: true,
      entry: { id: 2, revision: SHA('b') },
    });
    expect(chooseRollbackTarget(history, 1)).toEqual({
      ok: false,
      problem: 'Entry #1 did not succeed (Error): nothing to roll back to.',
    });
    expect(chooseRollbackTarget(history, 9)).toEqual({
      ok: false,
      problem: 'History has no entry #9 (newest: #3, #2, #1). /sync history lists them.',
    });
  });

  it('nothing to return to: empty history, only the current entry, or entries without ids', () => {
    expect(chooseRollbackTarget([])).toMatchObject({ ok: false, problem: /no history yet/ });
    expect(chooseRollbackTarget([entry(1, 'Succeeded', SHA('a'))])).toMatchObject({ ok: false });
    expect(
      chooseRollbackTarget([entry(2, 'Succeeded', SHA('b')), entry(undefined, 'Succeeded', SHA('a'))]),
    ).toMatchObject({ ok: false, problem: /No Succeeded sync before the current one/ });
  });

  it('refuses automated-sync Applications and local folders, as Argo CD refuses auto-sync ones', () => {
    const git = { repoURL: 'https://git.example.com/apps.git', path: 'web' };
    expect(rollbackRefusal({ name: 'web', source: git })).toBeUndefined();
    expect(rollbackRefusal({ name: 'web', source: git, automated: true })).toMatch(
      /^web has automated sync \(spec\.syncPolicy\.automated\), so it cannot be rolled back/,
    );
    expect(rollbackRefusal({ name: 'web', source: { repoURL: '', path: 'web' } })).toMatch(
      /^web is read from a local folder \(empty repoURL\), which has no revisions to roll back to/,
    );
  });

  it('offers the Roll back button only for a source known to have revisions, without automated sync', () => {
    const git = { repoURL: 'https://git.example.com/apps.git', path: 'web' };
    expect(canRollBack({ source: git })).toBe(true);
    expect(canRollBack({ source: git, automated: true })).toBe(false);
    expect(canRollBack({ source: { repoURL: '', path: 'web' } })).toBe(false);
    expect(canRollBack({ source: 'https://git.example.com/apps.git (web)' })).toBe(false);
  });

  it('the Roll back button: the newest Succeeded entry older than the failed job, recorded or not yet', () => {
    const history = [
      entry(4, 'Succeeded', SHA('d')),
      entry(3, 'Failed', SHA('c')),
      entry(2, 'Succeeded', SHA('b')),
      entry(1, 'Succeeded', SHA('a')),
    ];
    const before3 = rollbackTargetBefore(history, 'j3');
    expect(before3.ok && before3.entry.id).toBe(2);
    // The failed job's end not recorded yet: every recorded entry is older than it.
    const pending = rollbackTargetBefore(history, 'j-not-yet');
    expect(pending.ok && pending.entry.id).toBe(4);
  });
});

/** `web`'s history (newest first) and the jobs still in the queue, by id. */
function queueOf(history: HistoryEntry[], queued: Record<string, Pick<JobStatus, 'application'>> = {}) {
  return {
    history: async (application: string) => (application === 'web' ? history : []),
    jobStatus: async (jobId: string) => queued[jobId] as JobStatus | undefined,
  };
}

describe('src/rollback/rollback-operation: the Roll back button', () => {
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
