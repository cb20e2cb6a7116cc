/**
 * A request policy to test checkRequest and gateRequest against: guestbook in environment `production` (no
 * approval required), requested from <#C0DEPLOYS> or <#C0OPS> by the members of S0DEVS; the deps count the group
 * look-ups (the part of an evaluation that asks Slack) and record the audit log.
 */
import type { AuditEntry } from '../../src/environments/index.js';
import { parseSettings } from '../../src/settings/index.js';
import { testApplication } from './test-application.js';

const settings = parseSettings(
  [
    'environments:',
    '  production:',
    '    destinations: [{ namespace: prod }]',
    '    channels: [C0DEPLOYS, C0OPS]',
    '    requesters: { groups: [S0DEVS] }',
  ].join('\n'),
  '/etc/wavesync/wavesync.yaml',
);

const guestbook = testApplication({
  name: 'guestbook',
  destination: { server: 'https://kubernetes.default.svc', namespace: 'prod' },
});

/** `members`: user group → its users (default: U0KIM in S0DEVS). */
export function requestPolicy(members: Record<string, string[]> = { S0DEVS: ['U0KIM'] }) {
  const lookups: string[] = [];
  const audited: AuditEntry[] = [];
  const deps = {
    settings,
    findApplication: (name: string) => (name === guestbook.name ? guestbook : undefined),
    groups: {
      isMemberOfAny: async (userId: string, groups: readonly string[]) => {
        lookups.push(userId);
        return groups.some((g) => members[g]?.includes(userId));
      },
    },
    now: Date.now,
    audit: { append: async (entry: AuditEntry) => void audited.push(entry) },
  };
  return { deps, lookups, audited };
}
