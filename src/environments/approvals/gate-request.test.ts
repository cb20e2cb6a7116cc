import { describe, expect, it } from 'vitest';
import { testApplication } from '../../../test/support/test-application.js';
import { parseSettings } from '../../settings/index.js';
import type { AuditEntry } from '../audit-log.js';
import { checkRequest, type RequestCheck } from '../check-request.js';
import type { ApprovalDeps } from './approval-deps.js';
import { type GateRequestContext, gateRequest } from './gate-request.js';

const settings = parseSettings(
  [
    'environments:',
    '  staging:',
    '    destinations: [{ namespace: staging }]',
    '    requesters: { groups: [S0DEVS] }',
  ].join('\n'),
  '/etc/wavesync/wavesync.yaml',
);
const guestbook = testApplication({
  name: 'guestbook',
  destination: { server: 'https://kubernetes.default.svc', namespace: 'staging' },
});

/** What gateRequest needs where no approval is required: the policy's deps and the audit log (recorded). */
function gateDeps() {
  const lookups: string[] = [];
  const audited: AuditEntry[] = [];
  const deps = {
    settings,
    findApplication: (name: string) => (name === guestbook.name ? guestbook : undefined),
    groups: {
      isMemberOfAny: async (userId: string, groups: readonly string[]) => {
        lookups.push(userId);
        return groups.includes('S0DEVS') && userId === 'U0KIM';
      },
    },
    now: Date.now,
    audit: { append: async (entry: AuditEntry) => void audited.push(entry) },
  } as unknown as ApprovalDeps;
  return { deps, lookups, audited };
}

const ctx: GateRequestContext = {
  application: 'guestbook',
  operation: { prune: false, dryRun: false, syncOptions: [] },
  initiator: { userId: 'U0KIM', userName: 'kim' },
  channel: 'C0DEPLOYS',
  requestKey: 'k',
};

function verdictOf(checked: RequestCheck) {
  if (checked.kind !== 'decided' || !checked.verdict) throw new Error('no verdict');
  return checked.verdict;
}

describe('gateRequest with the verdict of the check before the ack', () => {
  it('proceeds on the verdict without asking the policy again, and audits the request as before', async () => {
    const { deps, lookups, audited } = gateDeps();
    const verdict = verdictOf(await checkRequest(deps, ctx));

    const result = await gateRequest(deps, { ...ctx, verdict });

    expect(result).toEqual({ kind: 'proceed', environment: 'staging' });
    expect(lookups).toEqual(['U0KIM']);
    expect(audited).toEqual([
      expect.objectContaining({ type: 'requested', application: 'guestbook', userId: 'U0KIM' }),
    ]);
  });

  it('asks the policy when the gate is asked for something else than the verdict was made for', async () => {
    const { deps, lookups } = gateDeps();
    const verdict = verdictOf(await checkRequest(deps, ctx));

    const result = await gateRequest(deps, {
      ...ctx,
      initiator: { userId: 'U0EVE', userName: 'eve' },
      verdict,
    });

    expect(result).toMatchObject({ kind: 'refused', code: 'not_permitted' });
    expect(lookups).toEqual(['U0KIM', 'U0EVE']);
  });
});
