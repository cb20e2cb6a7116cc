/**
 * ApprovalStore — approval requests in Redis. One HASH per request (`<prefix>:approvals:request:<id>`: the
 * immutable request as JSON, status, approvals, message, decision), a SORTED SET of pending requests by expiry
 * (`<prefix>:approvals:expiries`) and a job → request index for notifications. Every state change is one Lua
 * compare-and-set (approval-scripts.ts). Finished requests are kept `retentionMs` for audit look-ups.
 */

import type { RedisClient } from '../../queue/index.js';
import { runScript } from '../../queue/index.js';
import type {
  Approval,
  ApprovalRecord,
  ApprovalRequest,
  ApprovalStatus,
  MessageRef,
} from './approval-request.js';
import { CLOSE, DECIDE } from './approval-scripts.js';

type DecideOutcome =
  | { kind: 'missing' }
  | { kind: 'decided'; status: ApprovalStatus }
  | { kind: 'expired' }
  | { kind: 'already-approved' }
  | { kind: 'rejected' }
  | { kind: 'recorded'; approvals: Approval[] }
  | { kind: 'approved'; approvals: Approval[] };

export interface ApprovalStore {
  /**
   * Bind a request's idempotency key to `requestId` for `REQUEST_KEY_TTL_MS`; an earlier binding wins and is
   * returned. `replace` rebinds the key (the earlier request is closed, so a new one may start).
   */
  claimRequestKey(
    key: string,
    requestId: string,
    replace?: boolean,
  ): Promise<{ requestId: string; existing: boolean }>;
  create(request: ApprovalRequest): Promise<void>;
  attachMessage(id: string, message: MessageRef): Promise<void>;
  get(id: string): Promise<ApprovalRecord | undefined>;
  /** Record one click atomically (see DECIDE). `now` in ms. */
  decide(id: string, userId: string, decision: 'approve' | 'reject', now: number): Promise<DecideOutcome>;
  /** pending → expired, only when due. True when this call expired it. */
  expire(id: string, now: number): Promise<boolean>;
  /** pending → invalidated with a note. True when this call invalidated it. */
  invalidate(id: string, note: string, now: number): Promise<boolean>;
  /** pending → withdrawn by `userId` (`/sync cancel`), with a note. True when this call withdrew it. */
  withdraw(id: string, userId: string, note: string, now: number): Promise<boolean>;
  /**
   * The requests still pending (of `application`, or all), oldest first; a request past its expiry counts until
   * the sweeper expires it. Reads the pending set: O(pending requests).
   */
  pending(application?: string): Promise<ApprovalRecord[]>;
  /** Ids of pending requests whose expiry is at or before `now`. */
  dueForExpiry(now: number): Promise<string[]>;
  /**
   * Whether `application` has a sync's approval request still pending (not yet approved, rejected, expired or
   * invalidated; a request past its expiry counts until the sweeper expires it; a resource action's does not count).
   * Reads the pending set.
   */
  hasPending(application: string): Promise<boolean>;
  /** Remember the job an approved request queued (also for job → request look-ups); it leaves the to-enqueue set. */
  recordJob(id: string, jobId: string): Promise<void>;
  /**
   * An approved resource action's one run: true for the one caller that claims it (the click, or the sweeper for a
   * stranded one), false for every later one; the request leaves the to-enqueue set either way.
   */
  claimRun(id: string, now: number): Promise<boolean>;
  /** Remember why an approved request was not queued; it leaves the to-enqueue set. */
  recordNote(id: string, note: string): Promise<void>;
  /** Ids of approved requests approved at or before `before` (ms) whose job is not recorded yet. */
  awaitingEnqueue(before: number): Promise<string[]>;
  /** Take `id` out of the to-enqueue set (nothing left to do for it). */
  doneEnqueueing(id: string): Promise<void>;
  requestIdForJob(jobId: string): Promise<string | undefined>;
}

/** How long a request key suppresses a second approval request (ms): Slack's redelivery window and then some. */
const REQUEST_KEY_TTL_MS = 60_000;

export interface ApprovalStoreOptions {
  /** Key prefix, e.g. `wavesync` (tests: a unique one). */
  prefix: string;
  /** How long finished requests are kept, in ms (default 7 days). */
  retentionMs?: number;
}

export function createApprovalStore(redis: RedisClient, options: ApprovalStoreOptions): ApprovalStore {
  const base = `${options.prefix}:approvals`;
  const requestKey = (id: string) => `${base}:request:${id}`;
  const expiries = `${base}:expiries`;
  const toEnqueue = `${base}:to-enqueue`;
  const jobKey = (jobId: string) => `${base}:job:${jobId}`;
  const retention = options.retentionMs ?? 7 * 24 * 3_600_000;
  /**
   * How long a request's hash lives in Redis, as a duration: its own lifetime (expiry − creation, both from the
   * bot's clock) plus the retention. Never an absolute instant: Redis expires by its own clock, so a bot whose
   * clock is skewed from Redis's (or a test's fake clock) would otherwise lose the request the moment it is written.
   */
  const keepFor = (request: ApprovalRequest) =>
    Math.max(0, Date.parse(request.expiresAt) - Date.parse(request.createdAt)) + retention;
  const pending = async (application?: string): Promise<ApprovalRecord[]> => {
    const ids = await redis.zrange(expiries, 0, -1);
    if (ids.length === 0) return [];
    const pipeline = redis.pipeline();
    for (const id of ids) pipeline.hgetall(requestKey(id));
    const replies = (await pipeline.exec()) ?? [];
    return replies
      .map(([, fields]) => fields as Record<string, string> | null)
      .filter((fields): fields is Record<string, string> => typeof fields?.request === 'string')
      .map(recordOf)
      .filter(
        (r) => r.status === 'pending' && (application === undefined || r.request.application === application),
      )
      .sort((a, b) => a.request.createdAt.localeCompare(b.request.createdAt));
  };

  return {
    async claimRequestKey(key, requestId, replace = false) {
      const claimKey = `${base}:key:${key}`;
      if (replace) {
        await redis.set(claimKey, requestId, 'PX', REQUEST_KEY_TTL_MS);
        return { requestId, existing: false };
      }
      if ((await redis.set(claimKey, requestId, 'PX', REQUEST_KEY_TTL_MS, 'NX')) === 'OK') {
        return { requestId, existing: false };
      }
      return { requestId: (await redis.get(claimKey)) ?? requestId, existing: true };
    },
    async create(request) {
      const expiresAt = Date.parse(request.expiresAt);
      await redis
        .multi()
        .hset(requestKey(request.id), {
          request: JSON.stringify(request),
          status: 'pending',
          approvals: '[]',
          expiresAt: String(expiresAt),
          required: String(request.requiredApprovals),
        })
        .pexpire(requestKey(request.id), keepFor(request))
        .zadd(expiries, expiresAt, request.id)
        .exec();
    },
    async attachMessage(id, message) {
      await redis.hset(requestKey(id), 'message', JSON.stringify(message));
    },
    async get(id) {
      const fields = await redis.hgetall(requestKey(id));
      return fields.request ? recordOf(fields) : undefined;
    },
    async decide(id, userId, decision, now) {
      const reply = (await runScript(
        redis,
        DECIDE,
        [requestKey(id), expiries, toEnqueue],
        [userId, decision, now, id],
      )) as string[];
      return outcomeOf(reply);
    },
    async expire(id, now) {
      return (await runScript(redis, CLOSE, [requestKey(id), expiries], ['expired', now, id, '', '1'])) === 1;
    },
    async invalidate(id, note, now) {
      return (
        (await runScript(redis, CLOSE, [requestKey(id), expiries], ['invalidated', now, id, note, '0'])) === 1
      );
    },
    async withdraw(id, userId, note, now) {
      return (
        (await runScript(
          redis,
          CLOSE,
          [requestKey(id), expiries],
          ['withdrawn', now, id, note, '0', userId],
        )) === 1
      );
    },
    pending,
    dueForExpiry: (now) => redis.zrangebyscore(expiries, '-inf', now),
    async hasPending(application) {
      return (await pending(application)).some((r) => r.request.resourceAction === undefined);
    },
    async claimRun(id, now) {
      const replies = await redis
        .multi()
        .hsetnx(requestKey(id), 'ranAt', String(now))
        .zrem(toEnqueue, id)
        .exec();
      return replies?.[0]?.[1] === 1;
    },
    async recordJob(id, jobId) {
      const ttl = await redis.pttl(requestKey(id));
      await redis
        .multi()
        .hset(requestKey(id), 'jobId', jobId)
        .set(jobKey(jobId), id, 'PX', Math.max(ttl, 1))
        .zrem(toEnqueue, id)
        .exec();
    },
    async recordNote(id, note) {
      await redis.multi().hset(requestKey(id), 'note', note).zrem(toEnqueue, id).exec();
    },
    awaitingEnqueue: (before) => redis.zrangebyscore(toEnqueue, '-inf', before),
    async doneEnqueueing(id) {
      await redis.zrem(toEnqueue, id);
    },
    async requestIdForJob(jobId) {
      return (await redis.get(jobKey(jobId))) ?? undefined;
    },
  };
}

function recordOf(fields: Record<string, string>): ApprovalRecord {
  const record: ApprovalRecord = {
    request: JSON.parse(fields.request ?? '{}') as ApprovalRequest,
    status: (fields.status ?? 'pending') as ApprovalStatus,
    approvals: approvalsOf(fields.approvals ?? '[]'),
  };
  if (fields.message) record.message = JSON.parse(fields.message) as MessageRef;
  if (fields.decidedBy) record.decidedBy = fields.decidedBy;
  if (fields.decidedAt) record.decidedAt = Number(fields.decidedAt);
  if (fields.note) record.note = fields.note;
  if (fields.jobId) record.jobId = fields.jobId;
  return record;
}

/** cjson encodes an empty table as `{}`; entries are `[userId, ms]`. */
function approvalsOf(json: string): Approval[] {
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed)) return [];
  return parsed.map((entry) => {
    const [userId, at] = entry as [string, number];
    return { userId, at: Number(at) };
  });
}

function outcomeOf(reply: string[]): DecideOutcome {
  const [kind, detail] = reply;
  switch (kind) {
    case 'decided':
      return { kind, status: detail as ApprovalStatus };
    case 'recorded':
    case 'approved':
      return { kind, approvals: approvalsOf(detail ?? '[]') };
    case 'missing':
    case 'expired':
    case 'already-approved':
    case 'rejected':
      return { kind };
    default:
      throw new Error(`unexpected approval script reply ${String(kind)}`);
  }
}
