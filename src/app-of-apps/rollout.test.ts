import { describe, expect, it } from 'vitest';
import type { ChildOutcome } from './app-of-apps.js';
import { approvalClosedReason, nextRolloutAction, summarizeRollout } from './rollout.js';

const ok: ChildOutcome = { phase: 'Succeeded', health: 'Healthy', message: '' };
const running: ChildOutcome = { phase: 'Running', health: 'Progressing', message: '' };
const at = (entries: [string, ChildOutcome][]) => new Map(entries);

describe('nextRolloutAction', () => {
  const steps = [
    { applications: ['a', 'b', 'c'], atOnce: 2 },
    { applications: [], atOnce: 0 },
    { applications: ['d'], atOnce: 1 },
  ];

  it('starts at most atOnce of the first unfinished step, counting those running', () => {
    expect(nextRolloutAction({ steps }, at([]))).toEqual({
      action: 'sync',
      step: 0,
      applications: ['a', 'b'],
      stepStarts: true,
    });
    expect(
      nextRolloutAction(
        { steps },
        at([
          ['a', running],
          ['b', running],
        ]),
      ),
    ).toEqual({ action: 'wait' });
    expect(
      nextRolloutAction(
        { steps },
        at([
          ['a', ok],
          ['b', running],
        ]),
      ),
    ).toEqual({
      action: 'sync',
      step: 0,
      applications: ['c'],
      stepStarts: false,
    });
  });

  it('the next step (empty ones skipped) only when every Application before it is Succeeded and Healthy', () => {
    expect(
      nextRolloutAction(
        { steps },
        at([
          ['a', ok],
          ['b', ok],
          ['c', running],
        ]),
      ),
    ).toEqual({ action: 'wait' });
    expect(
      nextRolloutAction(
        { steps },
        at([
          ['a', ok],
          ['b', ok],
          ['c', ok],
        ]),
      ),
    ).toEqual({
      action: 'sync',
      step: 2,
      applications: ['d'],
      stepStarts: true,
    });
    expect(
      nextRolloutAction(
        { steps },
        at([
          ['a', ok],
          ['b', ok],
          ['c', ok],
          ['d', ok],
        ]),
      ),
    ).toEqual({
      action: 'done',
    });
  });

  it('stops at a failed sync or one that ended not Healthy, naming it and why', () => {
    const failed: ChildOutcome = { phase: 'Failed', health: 'Missing', message: 'hook failed' };
    const progressing: ChildOutcome = { phase: 'Succeeded', health: 'Progressing', message: '' };
    expect(
      nextRolloutAction(
        { steps },
        at([
          ['a', running],
          ['b', failed],
        ]),
      ),
    ).toEqual({
      action: 'stopped',
      step: 0,
      application: 'b',
      message: 'b sync Failed: hook failed',
    });
    expect(
      nextRolloutAction(
        { steps },
        at([['a', { ...progressing, healthMessage: 'Waiting for rollout to finish' }]]),
      ),
    ).toMatchObject({
      action: 'stopped',
      message: 'a is Progressing: Waiting for rollout to finish after its sync',
    });
  });

  it('a step that updates none (maxUpdate 0) stops the rollout; one already Healthy does not', () => {
    const zero = [
      { applications: ['a'], atOnce: 0, maxUpdate: '0%' },
      { applications: ['b'], atOnce: 1 },
    ];
    expect(nextRolloutAction({ steps: zero }, at([]))).toMatchObject({
      action: 'stopped',
      step: 0,
      message: expect.stringMatching(/^step 1 has maxUpdate 0%: none of its Applications \(a\) is updated/),
    });
    expect(nextRolloutAction({ steps: zero }, at([['a', ok]]))).toMatchObject({
      action: 'sync',
      applications: ['b'],
    });
  });
});

describe('a rollout Application whose approval closed without approval', () => {
  const asked = {
    requesterId: 'U0PAT',
    createdAt: '2026-01-07T10:00:00.000Z',
    expiresAt: '2026-01-07T10:30:00.000Z',
  };

  it('says why, naming who rejected or withdrew it, and how long an expired one waited', () => {
    expect(approvalClosedReason('prod-eu', { ...asked, status: 'rejected', decidedBy: 'U0ALICE' })).toEqual({
      message: 'prod-eu sync was rejected',
      by: 'U0ALICE',
    });
    expect(approvalClosedReason('prod-eu', { ...asked, status: 'rejected', decidedBy: 'U0PAT' })).toEqual({
      message: 'prod-eu sync was withdrawn',
      by: 'U0PAT',
    });
    expect(approvalClosedReason('prod-eu', { ...asked, status: 'expired' })).toEqual({
      message: 'prod-eu approval expired after 30 min',
    });
    expect(
      approvalClosedReason('prod-eu', { ...asked, status: 'invalidated', note: 'the revision changed' }),
    ).toEqual({ message: 'prod-eu approval was invalidated: the revision changed' });
  });

  it('stops the rollout there (not a wait, not the next step); the summary lists the others not synced', () => {
    const chain = {
      applicationSet: 'shop',
      steps: [
        { applications: ['dev'], atOnce: 1 },
        { applications: ['eu', 'us'], atOnce: 2 },
        { applications: ['late'], atOnce: 1 },
      ],
      unassigned: [],
    };
    const rejected: ChildOutcome = {
      phase: 'Failed',
      health: 'Unknown',
      message: 'eu sync was rejected',
      approvalClosed: { message: 'eu sync was rejected', by: 'U0ALICE' },
    };
    const waiting: ChildOutcome = { ...running, awaitingApproval: true };
    const outcomes = at([
      ['dev', ok],
      ['eu', rejected],
      ['us', waiting],
    ]);
    const next = nextRolloutAction(chain, outcomes);
    expect(next).toEqual({
      action: 'stopped',
      step: 1,
      application: 'eu',
      message: 'eu sync was rejected',
      by: 'U0ALICE',
    });
    const stopped = { step: 2, application: 'eu', message: 'eu sync was rejected', by: 'U0ALICE' };
    expect(summarizeRollout(chain, outcomes, stopped)).toEqual({
      applicationSet: 'shop',
      total: 4,
      healthy: ['dev'],
      stopped,
      notSynced: ['us', 'late'],
      unassigned: [],
    });
  });
});
