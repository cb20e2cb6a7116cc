import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APPROVE_ACTION_ID } from '../../../src/environments/index.js';
import { testRedis, waitFor } from '../support/queue-test-env.js';
import { ALERTS, DEPLOYS, type FlowEnv, startFlowEnv } from './approval-flow-env.js';

const redis = testRedis();
let env: FlowEnv;
let finished: number;

beforeEach(async () => {
  env = await startFlowEnv(redis);
  finished = 0;
});
afterEach(() => env.close());
afterAll(() => redis.quit());

/** Request, approve as U0SAM, and wait until the sync finished; resolves with its job id. */
async function approvedSync(text: string, requester: string): Promise<{ jobId: string; ts: string }> {
  const before = env.slack.channelMessages(DEPLOYS).length;
  await env.bot.sendCommand({ text, userId: requester, channelId: DEPLOYS });
  const { ts, value } = await env.slack.waitFor(() => {
    const header = env.slack.channelMessages(DEPLOYS).slice(before)[0];
    const actions = (header?.blocks as { type: string; elements?: { value?: string }[] }[] | undefined)?.find(
      (b) => b.type === 'actions',
    );
    const v = actions?.elements?.[0]?.value;
    return header && v ? { ts: header.ts, value: v } : undefined;
  });
  await env.bot.sendBlockAction({
    actionId: APPROVE_ACTION_ID,
    userId: 'U0SAM',
    messageTs: ts,
    value,
    channelId: DEPLOYS,
  });
  const history = await waitFor(
    async () => {
      const entries = await env.queue.history('guestbook');
      return entries.length > finished ? entries : undefined;
    },
    15_000,
    'the sync to finish',
  );
  finished = history.length;
  return { jobId: history[0]?.jobId ?? '', ts };
}

const alerts = () => env.slack.channelMessages(ALERTS);

describe('test/integration/approvals/failure-notifications', () => {
  it('when an approved sync fails, then the alerts channel is told once with who, what, the thread and the mention', async () => {
    env.failNext.value = true;
    const { jobId, ts } = await approvedSync('guestbook', 'U0PAT');

    const [alert] = await env.slack.waitFor(() => (alerts().length > 0 ? alerts() : undefined));
    const section = (alert?.blocks as { text?: { text: string }; elements?: { text: string }[] }[]) ?? [];
    expect(section[0]?.text?.text).toBe(
      '❌ *guestbook* → production failed · revision `abc123` · requested by <@U0PAT>, approved by <@U0SAM>\n' +
        'Sync hook Job/hook-1 failed: one or more synchronization tasks completed unsuccessfully (hook-1)',
    );
    expect(section[1]?.elements?.[0]?.text).toBe(
      `<https://fake.slack.test/archives/${DEPLOYS}/p${ts.replace('.', '')}|sync thread> · <!subteam^S0ONCALL>`,
    );

    const status = await env.queue.jobStatus(jobId);
    const replay = env.notifier.reporterFor({
      jobId,
      request: {
        application: 'guestbook',
        operation: status!.operation,
        initiator: status!.initiator,
        target: status!.target,
        requestKey: 'retry',
      },
    });
    await replay.report({
      type: 'OperationCompleted',
      at: new Date().toISOString(),
      phase: 'Failed',
      message: 'again',
      durationMs: 1,
      state: status!.operationState!,
    });
    await replay.close();
    expect(alerts()).toHaveLength(1);
  });

  it('when a sync succeeds after a failure, then "recovered" is posted once', async () => {
    env.failNext.value = true;
    await approvedSync('guestbook', 'U0PAT');
    await env.slack.waitFor(() => alerts().length === 1);

    await approvedSync('guestbook', 'U0KIM');
    await env.slack.waitFor(() => alerts().length === 2);
    await approvedSync('guestbook', 'U0EVE');

    expect(alerts()[1]?.text).toBe(
      '✅ guestbook → production recovered · revision abc123 · synced by @U0KIM',
    );
    expect(alerts()).toHaveLength(2);
    const outcomes = await env.approvals.audit('guestbook', 'U0SAM');
    expect(
      outcomes.allowed && outcomes.records.filter((r) => r.type === 'outcome').map((r) => r.phase),
    ).toEqual(['Succeeded', 'Succeeded', 'Failed']);
  });

  it('when the run fails outside the engine (the runner throws), then the thread ends Error with the reason and the alerts channel is told', async () => {
    env.throwNext.value = new Error('Kubernetes API unreachable: connect ECONNREFUSED 127.0.0.1:6443');
    const { ts } = await approvedSync('guestbook', 'U0PAT');
    // Shown without the API server's address (src/domain/reason-for-people.ts).
    const reason = 'Kubernetes API unreachable: connect ECONNREFUSED (address hidden)';

    const [alert] = await env.slack.waitFor(() => (alerts().length > 0 ? alerts() : undefined));
    expect(alert?.text).toContain('guestbook');
    expect(JSON.stringify(alert?.blocks)).toContain(reason);
    await env.slack.waitFor(() => env.slack.message(DEPLOYS, ts)?.text.includes('Error'));
    expect(env.slack.message(DEPLOYS, ts)?.text).not.toContain('Running');
    const thread = env.slack.thread(DEPLOYS, ts).map((m) => JSON.stringify(m.blocks));
    expect(thread.some((t) => t.includes(reason))).toBe(true);
  });
});
