import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  APPROVE_ACTION_ID,
  type AuditEntry,
  decodeApprovalButtonValue,
  STRANDED_AFTER_MS,
} from '../../../src/environments/index.js';
import type { SyncRequest } from '../../../src/queue/index.js';
import { approvalJobId, enqueueApproved } from '../../../src/requests/enqueue-approved.js';
import type { EnqueuePort } from '../../../src/requests/enqueue-port.js';
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

/** A pending request for guestbook (production: needs approval), as stored. */
async function pendingRecord() {
  const { requestId } = await requestApproval();
  const record = await env.store.get(requestId);
  if (!record) throw new Error(`request ${requestId} not stored`);
  return record;
}

/** Neither is reached when the store says no: any use fails the test (TypeError). */
const unused = { messenger: {} as never, audit: {} as never };

describe('enqueueApproved re-checks the approval store', () => {
  it('refuses a request the store holds as pending (not approved), queueing nothing', async () => {
    const record = await pendingRecord();

    await expect(
      enqueueApproved({ ...unused, store: env.store, queue: env.queue }, { ...record, status: 'approved' }),
    ).rejects.toThrow(`approval request ${record.request.id} is pending in the approval store, not approved`);
    expect(await env.queue.jobStatus(approvalJobId(record.request.id))).toBeUndefined();
    expect((await env.store.get(record.request.id))?.status).toBe('pending');
  });

  it('resolves with the job already recorded for an approved request, queueing nothing more', async () => {
    const record = await pendingRecord();
    const { id } = record.request;
    await env.store.decide(id, 'U0SAM', 'approve', env.clock.now);
    await env.store.recordJob(id, 'recorded-job');
    const approved = { ...record, status: 'approved' as const };

    expect(await enqueueApproved({ ...unused, store: env.store, queue: env.queue }, approved)).toEqual({
      jobId: 'recorded-job',
    });
    expect(await env.queue.jobStatus(approvalJobId(id))).toBeUndefined();
  });
});

describe('enqueueApproved queues what the store holds, not the caller’s copy', () => {
  it('builds the job, the thread reply and the audit entry from the stored record', async () => {
    const record = await pendingRecord();
    const { id } = record.request;
    await env.store.decide(id, 'U0SAM', 'approve', env.clock.now);
    const stored = await env.store.get(id);
    // A caller's copy that differs from what was approved: another operation, a deletion, no message, no approvers.
    const copy = {
      ...record,
      status: 'approved' as const,
      approvals: [],
      request: {
        ...record.request,
        operation: { prune: true, dryRun: false, syncOptions: ['Replace=true'] },
        deletion: { request: { confirmed: [], planHash: '0'.repeat(32) }, plan: {} as never },
      },
    };
    delete copy.message;
    const queued: SyncRequest[] = [];
    const replies: string[] = [];
    const audited: AuditEntry[] = [];
    const queue: EnqueuePort = {
      enqueueSync: (request, options) => {
        queued.push(request);
        return env.queue.enqueueSync(request, options);
      },
    };
    const messenger = { replyInThread: async (_m: unknown, text: string) => void replies.push(text) };
    const audit = { append: async (entry: AuditEntry) => void audited.push(entry) };

    const result = await enqueueApproved(
      { store: env.store, queue, messenger: messenger as never, audit: audit as never },
      copy,
    );

    expect(result).toEqual({ jobId: approvalJobId(id) });
    expect(queued).toHaveLength(1);
    expect(queued[0]?.operation).toEqual(stored?.request.operation);
    expect(queued[0]?.deletion).toBeUndefined();
    expect(queued[0]?.target).toEqual({ channel: stored?.message?.channel, threadTs: stored?.message?.ts });
    expect(replies).toEqual(['✅ Approved by <@U0SAM> — sync queued.']);
    expect(audited).toMatchObject([{ type: 'queued', requestId: id, revision: stored?.request.revision }]);
    expect(audited[0]).not.toHaveProperty('operation');
  });
});
