import { describe, expect, it } from 'vitest';
import { EnvironmentSchema } from '../settings/index.js';
import { authorizeDecision } from './approvals/authorize-decision.js';
import { authorizeRequest, type RequestContext } from './authorize-request.js';

const production = EnvironmentSchema.parse({
  requireApproval: true,
  approvers: { users: ['U0SAM'], groups: ['S0SRE'] },
  channels: ['C0DEPLOYS'],
  requesters: { users: ['U0PAT'], groups: ['S0DEVS'] },
  allowedRevisions: ['main', 'v*'],
  freezeWindows: [{ name: 'quarter-end', cron: '0 18 * * 5', durationMinutes: 3780 }],
});
const members: Record<string, string[]> = { S0SRE: ['U0LEE'], S0DEVS: ['U0KIM'] };
const isMemberOfAny = async (user: string, groups: readonly string[]) =>
  groups.some((g) => members[g]?.includes(user));

const ctx: RequestContext = {
  application: 'guestbook',
  environment: 'production',
  userId: 'U0PAT',
  channel: 'C0DEPLOYS',
  revisionName: 'main',
  breakGlassReason: undefined,
  now: new Date('2026-11-25T10:00:00Z'),
};

describe('src/environments/authorize-request', () => {
  it('allows a listed requester in an allowed channel at an allowed revision', async () => {
    expect(await authorizeRequest(production, ctx, isMemberOfAny)).toEqual({ allowed: true });
    expect(await authorizeRequest(production, { ...ctx, userId: 'U0KIM' }, isMemberOfAny)).toEqual({
      allowed: true,
    });
  });

  it('refuses other channels, naming the allowed ones', async () => {
    expect(await authorizeRequest(production, { ...ctx, channel: 'C0RANDOM' }, isMemberOfAny)).toEqual({
      allowed: false,
      code: 'channel_not_allowed',
      reason: 'guestbook (production) can only be synced from <#C0DEPLOYS>.',
    });
  });

  it('refuses users who may not request', async () => {
    const decision = await authorizeRequest(production, { ...ctx, userId: 'U0EVE' }, isMemberOfAny);

    expect(decision).toMatchObject({ allowed: false, code: 'not_permitted' });
  });

  it('refuses a disallowed revision, naming the rule', async () => {
    expect(await authorizeRequest(production, { ...ctx, revisionName: 'feature/x' }, isMemberOfAny)).toEqual({
      allowed: false,
      code: 'revision_not_allowed',
      reason: 'Revision feature/x is not allowed for production: allowedRevisions is `main`, `v*`.',
    });
  });

  it('refuses during a freeze with when it reopens, and lets break-glass with a reason through', async () => {
    const frozen = { ...ctx, now: new Date('2026-11-28T12:00:00Z') };

    expect(await authorizeRequest(production, frozen, isMemberOfAny)).toEqual({
      allowed: false,
      code: 'frozen',
      reason:
        'Sync of guestbook is frozen until Mon 2026-11-30 09:00 UTC (change freeze "quarter-end"). Break glass: /sync guestbook --break-glass "reason"',
    });
    expect(
      await authorizeRequest(production, { ...frozen, breakGlassReason: '  ' }, isMemberOfAny),
    ).toMatchObject({
      allowed: false,
      code: 'break_glass_needs_reason',
    });
    expect(
      await authorizeRequest(production, { ...frozen, breakGlassReason: 'outage fix' }, isMemberOfAny),
    ).toEqual({
      allowed: true,
      breakGlass: { reason: 'outage fix', freeze: 'quarter-end', endsAt: '2026-11-30T09:00:00.000Z' },
    });
  });

  it('a rollback: the rollback permission and freeze windows apply, allowedRevisions does not (the revision passed them when synced)', async () => {
    const rollback = {
      ...ctx,
      action: 'rollback' as const,
      revisionName: '3f2a1c9aa0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5',
    };

    expect(await authorizeRequest(production, rollback, isMemberOfAny)).toEqual({ allowed: true });
    expect(await authorizeRequest(production, { ...rollback, userId: 'U0EVE' }, isMemberOfAny)).toMatchObject(
      {
        allowed: false,
        code: 'not_permitted',
      },
    );
    expect(
      await authorizeRequest(
        production,
        { ...rollback, now: new Date('2026-11-28T12:00:00Z') },
        isMemberOfAny,
      ),
    ).toEqual({
      allowed: false,
      code: 'frozen',
      reason:
        'Sync of guestbook is frozen until Mon 2026-11-30 09:00 UTC (change freeze "quarter-end"). Break glass: /sync rollback guestbook --break-glass "reason"',
    });
  });
});

describe('src/environments/approvals/authorize-decision', () => {
  const base = { requesterId: 'U0PAT', application: 'guestbook', environment: 'production' };

  it('accepts listed approvers and group members', async () => {
    expect(
      await authorizeDecision(production, { ...base, decision: 'approve', userId: 'U0SAM' }, isMemberOfAny),
    ).toEqual({ allowed: true });
    expect(
      await authorizeDecision(production, { ...base, decision: 'approve', userId: 'U0LEE' }, isMemberOfAny),
    ).toEqual({ allowed: true });
  });

  it('refuses self-approval unless allowed', async () => {
    const self = { ...base, decision: 'approve' as const, userId: 'U0PAT' };

    expect(await authorizeDecision(production, self, isMemberOfAny)).toEqual({
      allowed: false,
      reason: 'You requested this sync; someone else from <@U0SAM>, <!subteam^S0SRE> must approve it.',
    });
    const relaxed = { ...production, allowSelfApproval: true, approvers: { users: ['U0PAT'], groups: [] } };
    expect(await authorizeDecision(relaxed, self, isMemberOfAny)).toEqual({ allowed: true });
  });

  it('refuses non-approvers, and lets the requester withdraw', async () => {
    expect(
      await authorizeDecision(production, { ...base, decision: 'approve', userId: 'U0EVE' }, isMemberOfAny),
    ).toEqual({
      allowed: false,
      reason: 'Only <@U0SAM>, <!subteam^S0SRE> may approve syncs of guestbook (production).',
    });
    expect(
      await authorizeDecision(production, { ...base, decision: 'reject', userId: 'U0PAT' }, isMemberOfAny),
    ).toEqual({ allowed: true });
  });

  it('fails closed when group membership cannot be read', async () => {
    const broken = async () => {
      throw new Error('ratelimited');
    };

    expect(
      await authorizeDecision(production, { ...base, decision: 'approve', userId: 'U0LEE' }, broken),
    ).toMatchObject({ allowed: false });
  });
});
