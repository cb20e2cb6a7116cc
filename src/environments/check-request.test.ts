import { describe, expect, it } from 'vitest';
import { requestPolicy as policy } from '../../test/support/request-policy.js';
import { checkRequest, type RequestAsk, type RequestCheck } from './check-request.js';

const ask: RequestAsk = {
  application: 'guestbook',
  operation: { prune: false, dryRun: false, syncOptions: [] },
  initiator: { userId: 'U0KIM', userName: 'kim' },
  channel: 'C0DEPLOYS',
};

function verdictOf(checked: RequestCheck) {
  if (checked.kind !== 'decided' || !checked.verdict)
    throw new Error(`no verdict: ${JSON.stringify(checked)}`);
  return checked.verdict;
}

describe('checkRequest evaluates the request policy once per request', () => {
  it('an allowed check gives its verdict; the same ask with it is decided without asking the policy again', async () => {
    const { deps, lookups } = policy();
    const first = await checkRequest(deps, ask);
    expect(first).toMatchObject({ kind: 'decided', decision: { allowed: true } });
    expect(lookups).toEqual(['U0KIM']);

    const again = await checkRequest(deps, ask, verdictOf(first));

    expect(again).toMatchObject({ kind: 'decided', decision: { allowed: true } });
    expect(lookups).toEqual(['U0KIM']);
  });

  it('any other ask is decided afresh: another user, channel, revision, action or break-glass reason', async () => {
    const { deps, lookups } = policy();
    const verdict = verdictOf(await checkRequest(deps, ask));
    const others: RequestAsk[] = [
      { ...ask, initiator: { userId: 'U0EVE', userName: 'eve' } },
      { ...ask, channel: 'C0OPS' },
      { ...ask, operation: { ...ask.operation, revision: 'v2' } },
      { application: ask.application, initiator: ask.initiator, channel: ask.channel, action: 'delete' },
      { ...ask, breakGlassReason: 'hotfix' },
    ];

    const decisions = [];
    for (const other of others) decisions.push(await checkRequest(deps, other, verdict));

    expect(lookups).toEqual(['U0KIM', 'U0EVE', 'U0KIM', 'U0KIM', 'U0KIM', 'U0KIM']);
    expect(decisions[0]).toMatchObject({ decision: { allowed: false, code: 'not_permitted' } });
  });

  it("a rollback's verdict, asked before its history entry is known, answers the ask for the entry's revision", async () => {
    const { deps, lookups } = policy();
    const rollback = (revision: string): RequestAsk => ({
      ...ask,
      action: 'rollback',
      operation: { ...ask.operation, revision },
    });
    const verdict = verdictOf(await checkRequest(deps, rollback('rollback')));

    const atEntry = await checkRequest(deps, rollback('3f2a1c9e8d7b6a5f4e3d2c1b0a9f8e7d6c5b4a39'), verdict);
    expect(atEntry).toMatchObject({ kind: 'decided', decision: { allowed: true }, verdict });
    expect(lookups).toEqual(['U0KIM']);

    // A sync of that revision is another ask: its revision is the policy's to judge.
    await checkRequest(
      deps,
      {
        ...ask,
        action: 'sync',
        operation: { ...ask.operation, revision: '3f2a1c9e8d7b6a5f4e3d2c1b0a9f8e7d6c5b4a39' },
      },
      verdict,
    );
    expect(lookups).toEqual(['U0KIM', 'U0KIM']);
  });

  it('a refusal comes with no verdict', async () => {
    const { deps } = policy({});

    const refused = await checkRequest(deps, ask);

    expect(refused).toMatchObject({ kind: 'decided', decision: { allowed: false } });
    expect(refused).not.toHaveProperty('verdict');
  });
});
