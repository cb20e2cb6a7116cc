import { describe, expect, it } from 'vitest';
import type { AuditRecord, AuditView } from '../../environments/index.js';
import { auditCommand } from './audit-command.js';

const records: AuditRecord[] = [
  {
    id: '2-0',
    at: '2026-11-29T14:03:00.000Z',
    type: 'approved',
    application: 'guestbook',
    userId: 'U0SAM',
    revision: '3f9c2e1aa0b4c5d6e7f8091a2b3c4d5e6f708192',
  },
  {
    id: '1-0',
    at: '2026-11-29T14:01:00.000Z',
    type: 'requested',
    application: 'guestbook',
    userId: 'U0PAT',
    breakGlass: 'hotfix',
  },
];

function approvals(view: AuditView) {
  const calls: [string, string, number | undefined][] = [];
  return {
    calls,
    audit: async (app: string, user: string, limit?: number) => {
      calls.push([app, user, limit]);
      return view;
    },
  };
}

describe('src/slack/commands/audit-command', () => {
  it('lists the entries newest first for an approver', async () => {
    const flow = approvals({ allowed: true, records });

    const reply = await auditCommand({ args: ['guestbook'], userId: 'U0SAM', approvals: flow });

    expect(flow.calls).toEqual([['guestbook', 'U0SAM', 25]]);
    expect(reply.blocks[1]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text:
          '`2026-11-29 14:03:00 UTC` *approved* <@U0SAM> — revision `3f9c2e1`\n' +
          '`2026-11-29 14:01:00 UTC` *requested* <@U0PAT> — break-glass: hotfix',
      },
    });
  });

  it('passes on the refusal for a non-approver, and asks for the app when missing', async () => {
    const refused = await auditCommand({
      args: ['guestbook'],
      userId: 'U0EVE',
      approvals: approvals({ allowed: false, reason: 'Only <@U0SAM> may read the audit log of guestbook.' }),
    });
    const missing = await auditCommand({
      args: [],
      userId: 'U0EVE',
      approvals: approvals({ allowed: true, records }),
    });

    expect(refused.text).toBe('Only @U0SAM may read the audit log of guestbook.');
    expect(missing.text).toBe('Which application? Name one. Usage: /sync audit <app>');
  });
});
