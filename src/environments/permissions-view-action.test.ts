import { describe, expect, it } from 'vitest';
import { parseSettings } from '../settings/index.js';
import { type Action, authorizeAction, type EnvironmentRef } from './permissions.js';

const isMemberOfAny = async (user: string, groups: readonly string[]) =>
  groups.includes('S0SRE') && user === 'U0SRE';

function environment(yaml: string): EnvironmentRef {
  return { name: 'production', settings: parseSettings(yaml, '/etc/wavesync.yaml').environments.production! };
}

const ask = (env: EnvironmentRef, action: Action, userId: string, channel = 'C0DEPLOYS') =>
  authorizeAction(env, { action, application: 'guestbook', userId, channel }, isMemberOfAny);

describe('permissions view and action', () => {
  const env = environment(`
environments:
  production:
    requireApproval: true
    approvers: { groups: [S0SRE] }
    channels: [C0DEPLOYS]
    permissions:
      sync: { users: [U0DEV] }
`);

  it('view follows read: anyone in the channels, and the approvers (who may audit) from anywhere', async () => {
    expect(await ask(env, 'view', 'U0EVE')).toEqual({ allowed: true });
    expect(await ask(env, 'view', 'U0SRE', 'D0DM')).toEqual({ allowed: true });
    expect(await ask(env, 'view', 'U0EVE', 'D0DM')).toMatchObject({ allowed: false, code: 'not_permitted' });
  });

  it('action follows sync, with its own wording', async () => {
    expect(await ask(env, 'action', 'U0DEV')).toEqual({ allowed: true });
    expect(await ask(env, 'action', 'U0EVE')).toEqual({
      allowed: false,
      code: 'not_permitted',
      reason: 'Only <@U0DEV> may run resource actions on guestbook (production).',
    });
  });

  it('both can be granted on their own, per environment and per Application', async () => {
    const own = environment(`
environments:
  production:
    channels: [C0DEPLOYS]
    permissions:
      view: { groups: [S0SRE] }
      action: { users: [U0ONCALL], channels: [] }
    applications:
      guestbook:
        permissions:
          action: { users: [U0GUEST] }
`);
    expect(await ask(own, 'view', 'U0EVE')).toMatchObject({ allowed: false, code: 'not_permitted' });
    expect(await ask(own, 'view', 'U0SRE')).toEqual({ allowed: true });
    expect(await ask(own, 'action', 'U0ONCALL')).toMatchObject({ allowed: false });
    expect(await ask(own, 'action', 'U0GUEST')).toEqual({ allowed: true });
    expect(
      await authorizeAction(
        own,
        { action: 'action', application: 'other', userId: 'U0ONCALL', channel: 'D0' },
        isMemberOfAny,
      ),
    ).toEqual({ allowed: true });
  });
});
