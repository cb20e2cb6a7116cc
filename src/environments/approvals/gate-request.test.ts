import { describe, expect, it } from 'vitest';
import { requestPolicy } from '../../../test/support/request-policy.js';
import { checkRequest, type RequestCheck } from '../check-request.js';
import type { ApprovalDeps } from './approval-deps.js';
import { type GateRequestContext, gateRequest } from './gate-request.js';

/** The policy's deps as gateRequest takes them (it needs no more where no approval is required). */
function gateDeps() {
  const policy = requestPolicy();
  return { ...policy, deps: policy.deps as unknown as ApprovalDeps };
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

    expect(result).toEqual({ kind: 'proceed', environment: 'production' });
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
