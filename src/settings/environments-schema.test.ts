import { describe, expect, it } from 'vitest';
import { BotError } from '../domain/index.js';
import { resourceActionNeedsApproval } from './environments-schema.js';
import { parseSettings } from './load-settings.js';

const FILE = '/etc/wavesync/wavesync.yaml';

function problemsOf(lines: string[]): string {
  try {
    parseSettings(lines.join('\n'), FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(BotError);
    return (error as BotError).message;
  }
  throw new Error('expected invalid settings');
}

describe('src/settings/environments-schema', () => {
  it('fills the documented defaults', () => {
    const settings = parseSettings('environments:\n  staging: {}\n', FILE);

    expect(settings.environments.staging).toEqual({
      destinations: [],
      requireApproval: false,
      approvers: { users: [], groups: [] },
      requiredApprovals: 1,
      allowSelfApproval: false,
      approvalExpiryMinutes: 30,
      channels: [],
      allowedRevisions: [],
      freezeWindows: [],
      permissions: {},
      subscriptions: {},
      applications: {},
      resourceActions: {},
    });
  });

  it('resourceActions: an action listed decides for itself, others follow requireApproval', () => {
    const settings = parseSettings(
      [
        'environments:',
        '  production:',
        '    requireApproval: true',
        '    approvers: { users: [U0SAM] }',
        '    resourceActions: { restart: { requireApproval: false } }',
        '  staging:',
        '    approvers: { groups: [S0SRE] }',
        '    resourceActions: { suspend: { requireApproval: true } }',
      ].join('\n'),
      FILE,
    );
    const { production, staging } = settings.environments;
    expect(resourceActionNeedsApproval(production!, 'restart')).toBe(false);
    expect(resourceActionNeedsApproval(production!, 'resume')).toBe(true);
    expect(resourceActionNeedsApproval(staging!, 'suspend')).toBe(true);
    expect(resourceActionNeedsApproval(staging!, 'restart')).toBe(false);
  });

  it('resourceActions: approval without approvers, or an unknown key, is refused with its path', () => {
    expect(() =>
      parseSettings(
        'environments:\n  staging:\n    resourceActions: { restart: { requireApproval: true } }\n',
        FILE,
      ),
    ).toThrow(
      'environments.staging.resourceActions.restart.requireApproval: needs approvers (at least one user or group) to approve the action',
    );
    expect(() =>
      parseSettings(
        'environments:\n  staging:\n    resourceActions: { restart: { approval: false } }\n',
        FILE,
      ),
    ).toThrow(/environments\.staging\.resourceActions\.restart.*approval/);
  });

  it('reads a full production environment', () => {
    const settings = parseSettings(
      [
        'environments:',
        '  production:',
        '    destinations: [{ namespace: prod }]',
        '    requireApproval: true',
        '    approvers: { users: [U0SAM], groups: [S0SRE] }',
        '    requiredApprovals: 2',
        '    channels: [C0DEPLOYS]',
        '    requesters: { groups: [S0DEVS] }',
        '    allowedRevisions: [main, "v*", "/^release-[0-9]+$/"]',
        '    freezeWindows: [{ name: quarter-end, cron: "0 18 * * 5", durationMinutes: 60 }]',
        '    notifications: { channel: C0ALERTS, mention: [S0ONCALL, here] }',
      ].join('\n'),
      FILE,
    );

    const production = settings.environments.production;
    expect(production?.requesters).toEqual({ users: [], groups: ['S0DEVS'] });
    expect(production?.freezeWindows).toEqual([
      { name: 'quarter-end', cron: '0 18 * * 5', durationMinutes: 60, timezone: 'UTC' },
    ]);
    expect(production?.notifications).toEqual({ channel: 'C0ALERTS', mention: ['S0ONCALL', 'here'] });
  });

  it('names an unknown key inside an environment', () => {
    expect(problemsOf(['environments:', '  production:', '    approverz: [U1]'])).toContain(
      `${FILE}:3: environments.production.approverz: unknown key`,
    );
  });

  it('names a bad cron expression with its key path and line', () => {
    const message = problemsOf([
      'environments:',
      '  production:',
      '    freezeWindows:',
      '      - { name: q, cron: "61 * * * *", durationMinutes: 5 }',
    ]);

    expect(message).toContain(
      `${FILE}:4: environments.production.freezeWindows[0].cron: invalid cron expression`,
    );
  });

  it('names a bad regex, a bad time zone and malformed Slack ids', () => {
    const message = problemsOf([
      'environments:',
      '  production:',
      '    allowedRevisions: ["/([a-z/"]',
      '    freezeWindows: [{ name: q, cron: "0 * * * *", durationMinutes: 5, timezone: Mars/Base }]',
      '    channels: [deploys]',
    ]);

    expect(message).toContain('environments.production.allowedRevisions[0]: invalid regular expression');
    expect(message).toContain('environments.production.freezeWindows[0].timezone: unknown time zone');
    expect(message).toContain('environments.production.channels[0]: must be a Slack channel id');
  });

  it('requires approvers when approval is required, and enough of them', () => {
    expect(problemsOf(['environments:', '  production: { requireApproval: true }'])).toContain(
      'environments.production.approvers: needs at least one user or group when requireApproval is true',
    );
    expect(
      problemsOf([
        'environments:',
        '  production: { requireApproval: true, approvers: { users: [U1] }, requiredApprovals: 2 }',
      ]),
    ).toContain(
      'environments.production.requiredApprovals: needs 2 distinct approvers but approvers lists 1',
    );
  });
});
