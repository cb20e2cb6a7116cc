/**
 * The command journal: a request is written here (Redis) before Slack is told "Got it", so an acknowledged command
 * survives the bot dying before it posted its header or enqueued the job. Each entry carries a lease (ZSET score, ms
 * since epoch): the process handling it renews the lease; once it lapses (that process died) `claimDue` hands the
 * entry to a recovering bot, which finishes it with the same job id (so it never runs twice). Entries are deleted
 * when the command reached the queue (or was refused, or went to approval); leftovers expire after `ENTRY_TTL_S`.
 */

import { type ReplicaDurability, waitForReplicas } from './durable-writes.js';
import { luaScript, runScript } from './lua-script.js';
import type { RedisClient } from './redis-connections.js';
import type { SyncKeys } from './redis-keys.js';

/** One accepted command. `payload` is the caller's (JSON-serialisable); `header` once its message was posted. */
export interface JournalEntry<P = unknown> {
  /** Also the job id the command is enqueued with. */
  id: string;
  payload: P;
  header?: { channel: string; ts: string };
  /** ms since epoch when it was recorded. */
  recordedAt: number;
}

export interface CommandJournal {
  /**
   * Record `payload` under `id` with a lease of `leaseMs`. Resolves once Redis has it.
   * @throws the Redis error (connection down, timeout): the command must not be acknowledged as accepted.
   */
  record(id: string, payload: unknown, leaseMs: number): Promise<void>;
  /** Extend the lease of a command still being handled. */
  renew(id: string, leaseMs: number): Promise<void>;
  /** The command's header was posted (a recovery updates it instead of posting another). */
  attachHeader(id: string, header: { channel: string; ts: string }): Promise<void>;
  /** The command reached its end (queued, pending approval, refused, not queued): forget it. */
  complete(id: string): Promise<void>;
  /** Up to `limit` entries whose lease lapsed, each leased anew for `leaseMs` to the caller. */
  claimDue(leaseMs: number, limit?: number): Promise<JournalEntry[]>;
}

/**
 * How many replicas must hold an entry before `record` resolves (Redis `WAIT`), and for how long to wait (ms).
 * Replication is asynchronous: without this, a master that dies right after the ack takes the entry with it.
 */
export type JournalDurability = ReplicaDurability;

/** Entries nobody finished are dropped after a day (a recovering bot runs within seconds of a restart). */
const ENTRY_TTL_S = 86_400;

const CLAIM_DUE = luaScript(`
local now = tonumber(ARGV[1])
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
for _, id in ipairs(ids) do
  local key = ARGV[4] .. id
  if redis.call('EXISTS', key) == 1 then
    redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), id)
    local h = redis.call('HMGET', key, 'payload', 'header', 'at')
    table.insert(out, { id, h[1] or '', h[2] or '', h[3] or '0' })
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return out
`);

/**
 * Journal over `redis` (the producer's fail-fast connection); `ready` waits, bounded, for the connection. With
 * `durability.replicas > 0` (Sentinel), `record` also waits until that many replicas have the entry (WAIT) and
 * throws when they do not confirm in time, so the command is not acknowledged. Later writes of the same command
 * (the job, `complete`) need no WAIT: replication is ordered, so a replica that lost them still has the entry, and
 * a recovering bot enqueues it again under the same job id.
 */
export function createCommandJournal(
  redis: RedisClient,
  keys: SyncKeys,
  ready: () => Promise<unknown>,
  durability: JournalDurability = { replicas: 0, timeoutMs: 0 },
): CommandJournal {
  const prefixOfEntry = keys.command('');
  return {
    async record(id, payload, leaseMs) {
      await ready();
      const now = Date.now();
      await redis
        .multi()
        .hset(keys.command(id), { payload: JSON.stringify(payload), at: String(now) })
        .expire(keys.command(id), ENTRY_TTL_S)
        .zadd(keys.commands, now + leaseMs, id)
        .exec()
        .then(throwOnExecError);
      await waitForReplicas(redis, durability);
    },
    async renew(id, leaseMs) {
      await redis.zadd(keys.commands, 'XX', Date.now() + leaseMs, id);
    },
    async attachHeader(id, header) {
      await redis.hset(keys.command(id), 'header', JSON.stringify(header));
    },
    async complete(id) {
      await redis.multi().zrem(keys.commands, id).del(keys.command(id)).exec().then(throwOnExecError);
    },
    async claimDue(leaseMs, limit = 20) {
      await ready();
      const rows = (await runScript(
        redis,
        CLAIM_DUE,
        [keys.commands],
        [Date.now(), leaseMs, limit, prefixOfEntry],
      )) as [string, string, string, string][];
      return rows.flatMap(([id, payload, header, at]) => {
        if (!payload) return [];
        return [
          {
            id,
            payload: JSON.parse(payload) as unknown,
            ...(header ? { header: JSON.parse(header) as { channel: string; ts: string } } : {}),
            recordedAt: Number(at),
          },
        ];
      });
    },
  };
}

function throwOnExecError(results: [Error | null, unknown][] | null): void {
  if (!results) throw new Error('Redis transaction aborted');
  const failed = results.find(([err]) => err);
  if (failed?.[0]) throw failed[0];
}
