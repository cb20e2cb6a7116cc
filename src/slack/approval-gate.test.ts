import { describe, expect, it } from 'vitest';
import type { PolicyVerdict, RequestApprovals } from '../environments/index.js';
import { createApprovalGate } from './approval-gate.js';

const asker = {
  application: 'guestbook',
  initiator: { userId: 'U0KIM', userName: 'kim' },
  target: { channel: 'C0DEPLOYS', threadTs: '1.1' },
  requestKey: 'k',
};
const header = { channel: 'C0DEPLOYS', ts: '1.1' };

/** The request side of the approval flow, recording what gateRequest was asked and how often the policy was. */
function recordingApprovals(verdict: PolicyVerdict) {
  const gated: Parameters<RequestApprovals['gateRequest']>[0][] = [];
  let checks = 0;
  const approvals: Pick<RequestApprovals, 'gateRequest' | 'checkRequest' | 'needsApproval'> = {
    gateRequest: async (ctx) => {
      gated.push(ctx);
      return { kind: 'proceed' };
    },
    checkRequest: async () => {
      checks += 1;
      return { allowed: true, verdict };
    },
    needsApproval: () => false,
  };
  return { approvals, gated, checks: () => checks };
}

const messenger = { showRefusal: async () => undefined, tellUser: async () => undefined };

describe('createApprovalGate hands the policy verdict from before the ack to the gate', () => {
  it('policy() answers with the verdict, and gate() passes it on to gateRequest with the deletion and its plan', async () => {
    const verdict: PolicyVerdict = { ask: '{"application":"guestbook"}', decision: { allowed: true } };
    const { approvals, gated, checks } = recordingApprovals(verdict);
    const gate = createApprovalGate(approvals, messenger);
    const deletion = {
      request: { confirmed: [], planHash: '0'.repeat(32) },
      plan: { objects: [] } as never,
    };

    const checked = await gate.policy(
      { ...asker, action: 'delete', channel: header.channel },
      { audit: true },
    );
    const outcome = await gate.gate({ ...asker, deletion }, { header, verdict });

    expect(checked).toEqual({ allowed: true, verdict });
    expect(outcome).toBe('proceed');
    expect(checks()).toBe(1);
    expect(gated).toEqual([
      expect.objectContaining({
        application: 'guestbook',
        channel: header.channel,
        header,
        deletion,
        verdict,
      }),
    ]);
    // A deletion syncs nothing: the gate is handed no operation for it.
    expect(gated[0]).not.toHaveProperty('operation');
  });
});
