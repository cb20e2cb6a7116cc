/**
 * The audit log: an append-only Redis STREAM per Application (`<prefix>:audit:<application>`, XADD with
 * auto ids, never trimmed or edited) of every request, refusal, decision, expiry, invalidation, queued job and
 * outcome, with the Slack ids involved. `/sync audit <app>` reads it newest first.
 */
import type { RedisClient } from '../queue/index.js';

type AuditEventType =
  | 'requested'
  | 'refused'
  | 'approval-recorded'
  | 'approved'
  | 'rejected'
  | 'decision-refused'
  | 'expired'
  | 'invalidated'
  | 'queued'
  | 'not-queued'
  | 'outcome'
  | 'prune-confirmed'
  | 'cancelled'
  | 'self-heal'
  | 'automated-sync'
  | 'resource-action';

export interface AuditEntry {
  type: AuditEventType;
  application: string;
  /** Slack user id of the actor (requester, approver, …); absent for the system (expiry, outcome). */
  userId?: string;
  /** Slack channel id. */
  channel?: string;
  /** Slack message ts of the approval message / sync thread. */
  messageTs?: string;
  requestId?: string;
  jobId?: string;
  environment?: string;
  revision?: string;
  /** Refusal reason, break-glass reason, outcome message. */
  reason?: string;
  breakGlass?: string;
  /** Outcome phase (Succeeded, Failed, Error). */
  phase?: string;
  /** `delete` for `/sync delete` requests and jobs; absent for syncs. */
  operation?: 'delete';
  /** What started it when not a typed command: `drift notice Sync button`, `selfHeal`, `push 3f9c2e1 from GitHub`. */
  trigger?: string;
  /** `resource-action`: the action and its object, e.g. `restart Deployment/web` (parameters as `k=v`). */
  resourceAction?: string;
}

/** An entry as read back: its stream id and ISO-8601 time (from the id). */
export interface AuditRecord extends AuditEntry {
  id: string;
  at: string;
}

export interface AuditLog {
  append(entry: AuditEntry): Promise<string>;
  /** Newest first, at most `limit` (default 20). */
  read(application: string, limit?: number): Promise<AuditRecord[]>;
}

export function createAuditLog(redis: RedisClient, prefix: string): AuditLog {
  const key = (application: string) => `${prefix}:audit:${application}`;
  return {
    async append(entry) {
      const fields = Object.entries(entry).flatMap(([k, v]) => (v === undefined ? [] : [k, String(v)]));
      return (await redis.xadd(key(entry.application), '*', ...fields)) ?? '';
    },
    async read(application, limit = 20) {
      const entries = await redis.xrevrange(key(application), '+', '-', 'COUNT', limit);
      return entries.map(([id, flat]) => recordOf(id, flat));
    },
  };
}

function recordOf(id: string, flat: string[]): AuditRecord {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i] as string] = flat[i + 1] as string;
  const at = new Date(Number(id.split('-')[0])).toISOString();
  return { ...(fields as unknown as AuditEntry), id, at };
}
