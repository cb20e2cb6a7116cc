import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  APPROVE_ACTION_ID,
  decodeApprovalButtonValue,
  STRANDED_AFTER_MS,
} from '../../../src/environments/index.js';
import { approvalJobId } from '../../../src/requests/index.js';
import { testRedis, waitFor } from '../support/queue-test-env.js';
import { DEPLOYS, type FlowEnv, startFlowEnv } from './approval-flow-env.js';

const redis = testRedis();
let env: FlowEnv;

beforeEach(async () => {
  env = await startFlowEnv(redis);
});
afterEach(() => env.close());
afterAll(() => redis.quit());

/** `/sync guestbook` by @pat (production: needs approval); resolves with the approval message and request id. */
async function requestApproval(): Promise<{ ts: string; value: string; requestId: string }> {
  const posted = await env.requestApproval('guestbook');
  return { ...posted, requestId: decodeApprovalButtonValue(posted.value)?.requestId ?? '' };
}

describe('an approval stored by a bot that stopped before queueing it (stranded)', () => {
  it('is queued once by the sweeper after STRANDED_AFTER_MS, announced in its thread, and never again', async () => {
    const { ts, requestId } = await requestApproval();
    // The click's first step (the atomic decision) happens; the bot dies before enqueueApproved.
    expect(await env.store.decide(requestId, 'U0SAM', 'approve', env.clock.now)).toMatchObject({
      kind: 'approved',
    });

    expect(await env.approvals.enqueueStranded()).toBe(0); // too young: the clicking bot may still be queueing
    env.clock.now += STRANDED_AFTER_MS;
    expect(await env.approvals.enqueueStranded()).toBe(1);
    expect(await env.approvals.enqueueStranded()).toBe(0);

    const record = await env.store.get(requestId);
    expect(record?.jobId).toBe(approvalJobId(requestId));
    const finished = await waitFor(async () => {
      const job = await env.queue.jobStatus(approvalJobId(requestId));
      return job?.state === 'completed' ? job : undefined;
    });
    expect(finished.application).toBe('guestbook');
    const replies = env.slack.thread(DEPLOYS, ts).map((m) => m.text);
    expect(replies.filter((t) => t.includes('— sync queued.'))).toHaveLength(1);
    expect(await env.queue.history('guestbook')).toHaveLength(1);
  });

  it('a normal approval leaves nothing for the sweeper, and a late retry of it queues nothing twice', async () => {
    const { ts, value, requestId } = await requestApproval();
    await env.bot.sendBlockAction({
      actionId: APPROVE_ACTION_ID,
      userId: 'U0SAM',
      messageTs: ts,
      value,
      channelId: DEPLOYS,
    });
    await waitFor(async () => (await env.store.get(requestId))?.jobId);

    env.clock.now += 10 * STRANDED_AFTER_MS;
    expect(await env.approvals.enqueueStranded()).toBe(0);
    const again = await env.queue.enqueueSync(
      {
        application: 'guestbook',
        operation: { prune: false, dryRun: false, syncOptions: [] },
        initiator: { userId: 'U0PAT', userName: 'pat' },
        target: undefined,
        requestKey: `approval-${requestId}-late`,
      },
      { jobId: approvalJobId(requestId) },
    );
    expect(again).toMatchObject({ jobId: approvalJobId(requestId), duplicate: true });
  });
});
