import { describe, expect, it } from 'vitest';
import { parseSettings } from '../settings/index.js';
import {
  type Action,
  authorizeAction,
  type EnvironmentRef,
  grantsFor,
  rollbackButtonUsable,
} from './permissions.js';

const FILE = '/etc/wavesync/wavesync.yaml';
const members: Record<string, string[]> = {
  S0SRELEADS: ['U0LEAD'],
  S0DEVS: ['U0DEV'],
  S0SRE: ['U0SRE'],
  S0PAYMENTS: ['U0PAY'],
};
const isMemberOfAny = async (user: string, groups: readonly string[]) =>
  groups.some((g) => members[g]?.includes(user));

function environment(yaml: string, name = 'production'): EnvironmentRef {
  const settings = parseSettings(yaml, FILE);
  return { name, settings: settings.environments[name]! };
}

const ask = (env: EnvironmentRef, action: Action, userId: string, extra: Record<string, string> = {}) =>
  authorizeAction(
    env,
    {
      action,
      application: extra.application ?? 'guestbook',
      userId,
      channel: extra.channel ?? 'C0DEPLOYS',
      ...extra,
    },
    isMemberOfAny,
  );

/** The example of docs/approvals.md, "Who may do what". */
const DOCS_EXAMPLE = `
environments:
  production:
    requireApproval: true
    approvers: { groups: [S0SRELEADS] }
    channels: [C0DEPLOYS]
    permissions:
      sync: { groups: [S0DEVS] }
      cancel: [{ groups: [S0SRE], channels: [] }, { users: [U0RELEASE] }]
      audit: { groups: [S0SRE], channels: [] }
    applications:
      payments:
        permissions:
          sync: { groups: [S0PAYMENTS] }
`;

describe('src/environments/permissions defaults', () => {
  const env = environment(`
environments:
  production:
    requireApproval: true
    approvers: { users: [U0SAM], groups: [S0SRELEADS] }
    channels: [C0DEPLOYS]
`);

  it('cancel: the requester (from anywhere), approvers (from anywhere), whoever may sync (in the allowed channels)', async () => {
    expect(await ask(env, 'cancel', 'U0PAT', { requesterId: 'U0PAT', channel: 'C0ELSEWHERE' })).toEqual({
      allowed: true,
    });
    expect(await ask(env, 'cancel', 'U0LEAD', { requesterId: 'U0PAT', channel: 'C0ELSEWHERE' })).toEqual({
      allowed: true,
    });
    expect(await ask(env, 'cancel', 'U0EVE', { requesterId: 'U0PAT' })).toEqual({ allowed: true });
    expect(await ask(env, 'cancel', 'U0EVE', { requesterId: 'U0PAT', channel: 'C0ELSEWHERE' })).toEqual({
      allowed: false,
      code: 'not_permitted',
      reason:
        'Only <@U0SAM>, <!subteam^S0SRELEADS> (and the requester of a sync) may cancel syncs of guestbook (production) here; anyone may from <#C0DEPLOYS>.',
    });
  });

  it('sync, dry-run, delete, rollback: anyone in the allowed channels without requesters', async () => {
    for (const action of ['sync', 'dry-run', 'delete', 'rollback'] as const) {
      expect(await ask(env, action, 'U0EVE')).toEqual({ allowed: true });
      expect(await ask(env, action, 'U0EVE', { channel: 'C0ELSEWHERE' })).toMatchObject({
        allowed: false,
        code: 'channel_not_allowed',
      });
    }
  });

  it('approve, audit, prune-confirm: the approvers, from any channel', async () => {
    for (const action of ['approve', 'audit', 'prune-confirm'] as const) {
      expect(await ask(env, action, 'U0LEAD', { channel: 'D0DM' })).toEqual({ allowed: true });
      expect(await ask(env, action, 'U0EVE')).toMatchObject({ allowed: false, code: 'not_permitted' });
    }
  });

  it('without requireApproval, prune-confirm follows sync; without approvers, audit follows sync', async () => {
    const staging = environment('environments:\n  staging: { channels: [C0DEPLOYS] }\n', 'staging');

    expect(await ask(staging, 'prune-confirm', 'U0EVE')).toEqual({ allowed: true });
    expect(await ask(staging, 'audit', 'U0EVE')).toEqual({ allowed: true });
    expect(await ask(staging, 'audit', 'U0EVE', { channel: 'C0ELSEWHERE' })).toMatchObject({
      allowed: false,
    });
  });

  it('no environment: everything is allowed', async () => {
    expect(
      await authorizeAction(
        undefined,
        { action: 'cancel', application: 'x', userId: 'U0EVE', channel: 'C0X' },
        isMemberOfAny,
      ),
    ).toEqual({ allowed: true });
  });
});

describe('src/environments/permissions configured (the docs/approvals.md example)', () => {
  const env = environment(DOCS_EXAMPLE);

  it('a configured grant replaces the default; channels omitted means the environment channels', async () => {
    expect(await ask(env, 'sync', 'U0DEV')).toEqual({ allowed: true });
    expect(await ask(env, 'sync', 'U0EVE')).toMatchObject({
      allowed: false,
      reason: 'Only <!subteam^S0DEVS> may sync guestbook (production).',
    });
    expect(await ask(env, 'dry-run', 'U0DEV')).toEqual({ allowed: true });
    expect(await ask(env, 'sync', 'U0DEV', { channel: 'C0ELSEWHERE' })).toMatchObject({
      reason: 'guestbook (production) can only be synced from <#C0DEPLOYS>.',
    });
  });

  it('a list of grants: any may allow, each with its own channels', async () => {
    expect(await ask(env, 'cancel', 'U0SRE', { channel: 'D0DM' })).toEqual({ allowed: true });
    expect(await ask(env, 'cancel', 'U0RELEASE')).toEqual({ allowed: true });
    expect(await ask(env, 'cancel', 'U0RELEASE', { channel: 'D0DM' })).toMatchObject({ allowed: false });
    expect(await ask(env, 'cancel', 'U0DEV')).toMatchObject({ allowed: false });
    expect(await ask(env, 'cancel', 'U0DEV', { requesterId: 'U0DEV' })).toEqual({ allowed: true });
  });

  it('an Application override wins for that Application, and the actions defaulting to sync follow it', async () => {
    const payments = { application: 'payments' };
    expect(await ask(env, 'sync', 'U0PAY', payments)).toEqual({ allowed: true });
    expect(await ask(env, 'sync', 'U0DEV', payments)).toMatchObject({ allowed: false });
    expect(await ask(env, 'delete', 'U0PAY', payments)).toEqual({ allowed: true });
    expect(grantsFor(env, 'guestbook', 'delete')).toEqual(grantsFor(env, 'guestbook', 'sync'));
  });

  it('a failed group lookup asks to try again instead of refusing', async () => {
    const broken = async () => {
      throw new Error('ratelimited');
    };

    const decision = await authorizeAction(
      env,
      { action: 'sync', application: 'guestbook', userId: 'U0DEV', channel: 'C0DEPLOYS' },
      broken,
    );

    expect(decision).toEqual({
      allowed: false,
      code: 'membership_unknown',
      reason:
        'I could not check your membership of <!subteam^S0DEVS> with Slack, so I cannot tell whether you may sync guestbook (production). Try again in a minute.',
    });
  });

  it('unknown actions and bad ids in permissions are refused at load, naming the key', () => {
    expect(() =>
      parseSettings('environments:\n  production:\n    permissions: { deploy: { users: [U0X] } }\n', FILE),
    ).toThrow(/permissions/);
    expect(() =>
      parseSettings('environments:\n  production:\n    permissions: { sync: { users: [pat] } }\n', FILE),
    ).toThrow(/Slack user id/);
  });
});

describe('src/environments/permissions rollback from the notification channel', () => {
  // The breaker's set-up (report item 2): syncs only in C0WEB, notices in C0ALERTS.
  const env = environment(
    `
environments:
  staging:
    channels: [C0WEB]
    notifications: { channel: C0ALERTS }
    permissions:
      rollback: { users: [U0PAT] }
`,
    'staging',
  );
  const rollback = (userId: string, channel: string, fromBotMessage?: boolean) =>
    authorizeAction(
      env,
      {
        action: 'rollback',
        application: 'web',
        userId,
        channel,
        ...(fromBotMessage ? { fromBotMessage } : {}),
      },
      isMemberOfAny,
    );

  it('a Roll back click on the notice in the notification channel is allowed for a user the rollback grant names', async () => {
    expect(await rollback('U0PAT', 'C0ALERTS', true)).toEqual({ allowed: true });
    expect(await rollback('U0LEE', 'C0ALERTS', true)).toEqual({
      allowed: false,
      code: 'not_permitted',
      reason: 'Only <@U0PAT> may roll back web (staging).',
    });
  });

  it('a typed /sync rollback there, or a click in another channel, is still held to the channels', async () => {
    expect(await rollback('U0PAT', 'C0ALERTS')).toMatchObject({
      allowed: false,
      code: 'channel_not_allowed',
    });
    expect(await rollback('U0PAT', 'C0OTHER', true)).toMatchObject({
      allowed: false,
      code: 'channel_not_allowed',
    });
    expect(await rollback('U0PAT', 'C0WEB')).toEqual({ allowed: true });
  });

  it('the notice shows Roll back only where someone could use it', () => {
    expect(rollbackButtonUsable(env, 'web', 'C0ALERTS')).toBe(true);
    expect(rollbackButtonUsable(env, 'web', 'C0OTHER')).toBe(false);
    const nobody = environment(
      `
environments:
  staging:
    notifications: { channel: C0ALERTS }
    permissions:
      rollback: { users: [] }
`,
      'staging',
    );
    expect(rollbackButtonUsable(nobody, 'web', 'C0ALERTS')).toBe(false);
    expect(rollbackButtonUsable(undefined, 'web', 'C0ALERTS')).toBe(true);
  });
});
