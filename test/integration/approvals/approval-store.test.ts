import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../src/environments/approvals/approval-request.js';
import {
  type ApprovalStore,
  createApprovalStore,
} from '../../../src/environments/approvals/approval-store.js';
import { createAuditLog } from '../../../src/environments/audit-log.js';
import { deleteKeys, testRedis, uniquePrefix } from '../support/queue-test-env.js';

const redis = testRedis();
let prefix: string;
let store: ApprovalStore;

/** The bot's clock in these tests: the real now (Redis expires by its own clock), 5 minutes into a request. */
const CREATED = Date.now();
const T0 = CREATED + 5 * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

function request(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    id: randomUUID(),
    application: 'guestbook',
    environment: 'production',
    operation: { prune: false, dryRun: false, syncOptions: [] },
    revision: 'a'.repeat(40),
    revisionName: 'main',
    binding: 'b'.repeat(64),
    requester: { userId: 'U0PAT', userName: 'pat' },
    channel: 'C0DEPLOYS',
    approvers: { users: ['U0SAM', 'U0LEE'], groups: [] },
    requiredApprovals: 1,
    createdAt: iso(CREATED),
    expiresAt: iso(CREATED + 30 * 60_000),
    plan: { liveKnown: false, create: [], update: [], apply: [], prune: [], pruneSkipped: [], hooks: {} },
    ...overrides,
  };
}

beforeEach(() => {
  prefix = uniquePrefix();
  store = createApprovalStore(redis, { prefix });
});
afterEach(() => deleteKeys(redis, prefix));
afterAll(() => redis.quit());

describe('test/integration/approvals/approval-store', () => {
  it('when two approvers click at the same instant, then exactly one approval wins', async () => {
    const req = request();
    await store.create(req);

    const outcomes = await Promise.all(
      ['U0SAM', 'U0LEE', 'U0SAM', 'U0LEE'].map((user) => store.decide(req.id, user, 'approve', T0)),
    );

    expect(outcomes.filter((o) => o.kind === 'approved')).toHaveLength(1);
    const record = await store.get(req.id);
    expect(record?.status).toBe('approved');
    expect(record?.approvals).toHaveLength(1);
  });

  it('when two distinct approvals are required, then the same user counts once and the second user approves', async () => {
    const req = request({ requiredApprovals: 2 });
    await store.create(req);

    expect(await store.decide(req.id, 'U0SAM', 'approve', T0)).toEqual({
      kind: 'recorded',
      approvals: [{ userId: 'U0SAM', at: T0 }],
    });
    expect(await store.decide(req.id, 'U0SAM', 'approve', T0 + 1)).toEqual({ kind: 'already-approved' });
    expect((await store.decide(req.id, 'U0LEE', 'approve', T0 + 2)).kind).toBe('approved');
    expect(await store.decide(req.id, 'U0LEE', 'reject', T0 + 3)).toEqual({
      kind: 'decided',
      status: 'approved',
    });
  });

  it('when approve and reject race, then one of them decides and the other sees the decision', async () => {
    const req = request();
    await store.create(req);

    const [a, b] = await Promise.all([
      store.decide(req.id, 'U0SAM', 'approve', T0),
      store.decide(req.id, 'U0LEE', 'reject', T0),
    ]);

    expect([a.kind, b.kind].sort()).toEqual(
      a.kind === 'approved' ? ['approved', 'decided'] : ['decided', 'rejected'],
    );
  });

  it('when the deadline passes, then clicks expire it and the sweeper finds only due requests', async () => {
    const due = request();
    const later = request({ expiresAt: iso(CREATED + 60 * 60_000) });
    await store.create(due);
    await store.create(later);
    const afterDeadline = Date.parse(due.expiresAt);

    expect(await store.dueForExpiry(afterDeadline)).toEqual([due.id]);
    expect(await store.decide(due.id, 'U0SAM', 'approve', afterDeadline)).toEqual({ kind: 'expired' });
    expect(await store.expire(due.id, afterDeadline)).toBe(false);
    expect(await store.expire(later.id, afterDeadline)).toBe(false);
    expect(await store.dueForExpiry(afterDeadline)).toEqual([]);
    expect((await store.get(due.id))?.status).toBe('expired');
  });

  it.each([
    ['a year ahead of', 365],
    ['a year behind', -365],
  ])(
    'when the bot clock is %s Redis, then a request is kept for its lifetime plus the retention, and decided',
    async (_, days) => {
      const skewed = Date.now() + days * 86_400_000;
      const req = request({ createdAt: iso(skewed), expiresAt: iso(skewed + 30 * 60_000) });
      await store.create(req);

      const ttl = await redis.pttl(`${prefix}:approvals:request:${req.id}`);
      const retention = 7 * 24 * 3_600_000;
      expect(ttl).toBeGreaterThan(retention + 29 * 60_000);
      expect(ttl).toBeLessThanOrEqual(retention + 30 * 60_000);
      expect(await store.decide(req.id, 'U0SAM', 'approve', skewed + 60_000)).toMatchObject({
        kind: 'approved',
      });
      expect((await store.get(req.id))?.status).toBe('approved');
    },
  );

  it('when a delivery is repeated, then the first claim of its key wins', async () => {
    const first = await store.claimRequestKey('trigger-1', 'id-1');
    const second = await store.claimRequestKey('trigger-1', 'id-2');

    expect(first).toEqual({ requestId: 'id-1', existing: false });
    expect(second).toEqual({ requestId: 'id-1', existing: true });
  });

  it('when a request is pending, then its application has one pending until it is decided', async () => {
    const req = request();
    await store.create(request({ application: 'other' }));
    expect(await store.hasPending('guestbook')).toBe(false);

    await store.create(req);
    expect(await store.hasPending('guestbook')).toBe(true);

    await store.decide(req.id, 'U0SAM', 'reject', T0);
    expect(await store.hasPending('guestbook')).toBe(false);
    expect(await store.hasPending('other')).toBe(true);
  });

  it('when a job is recorded, then it maps back to the request', async () => {
    const req = request();
    await store.create(req);
    await store.attachMessage(req.id, { channel: 'C0DEPLOYS', ts: '1.000001' });

    await store.recordJob(req.id, 'job-1');

    expect(await store.requestIdForJob('job-1')).toBe(req.id);
    expect(await store.get(req.id)).toMatchObject({
      jobId: 'job-1',
      message: { channel: 'C0DEPLOYS', ts: '1.000001' },
    });
  });

  it('appends audit entries and reads them newest first', async () => {
    const audit = createAuditLog(redis, prefix);
    await audit.append({ type: 'requested', application: 'guestbook', userId: 'U0PAT', requestId: 'r1' });
    await audit.append({ type: 'approved', application: 'guestbook', userId: 'U0SAM', requestId: 'r1' });

    const records = await audit.read('guestbook');

    expect(records.map((r) => [r.type, r.userId])).toEqual([
      ['approved', 'U0SAM'],
      ['requested', 'U0PAT'],
    ]);
    expect(records[0]?.at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});
