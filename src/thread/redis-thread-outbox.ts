/**
 * The thread outbox (./thread-outbox.ts) in Redis. Layout, all under `<prefix>:thread:` and expiring `OUTBOX_TTL_S`
 * after their last write:
 * - `outbox:<jobId>` STREAM of lines: fields `k` (key), `m` (the chat message, JSON), `b` ("1": broadcast), `h`
 *   ("1": a hook outcome);
 * - `outbox:<jobId>:state` HASH: `channel`, `threadTs`; `drops` (lines given up), `announced` (drops said in the
 *   thread); the header: `hseq`, `hmsg` (the chat message, JSON), `hfinal` ("1"), `happlied` (seq last applied);
 * - `outbox:<jobId>:lease` STRING: the deliverer's token, expiring `leaseMs` after its last renewal;
 * - `outboxes` ZSET: job ids with an open outbox, scored by the last write (ms), for the sweeper.
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../queue/index.js';
import type { ChatMessage } from './chat.js';
import {
  DEFAULT_LEASE_MS,
  type OutboxEntry,
  type StoredHeader,
  type ThreadOutbox,
  type ThreadOutboxes,
} from './thread-outbox.js';

/** Retention of an outbox's keys after their last write, in seconds (7 days, like job records). */
const OUTBOX_TTL_S = 7 * 24 * 3600;

/**
 * Whether the lease (KEYS[2]) is token ARGV[1]'s, renewing it for ARGV[2] ms: held, or lapsed while its holder —
 * still the outbox's owner (KEYS[1] field `owner`) — was idle. Another token, or an outbox closed meanwhile: no.
 */
const MINE = `
local function mine()
  local cur = redis.call('GET', KEYS[2])
  if cur == ARGV[1] then
    redis.call('PEXPIRE', KEYS[2], ARGV[2])
    return true
  end
  if cur or redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return false end
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
  return true
end
`;

/** The state hash's fields of the stored header, in the order headerOf reads them. */
const HEADER_FIELDS = ['hseq', 'hmsg', 'hfinal', 'happlied'] as const;

/** Take the lease: SET when free (or when ARGV[3] = '1', from anyone); record the owner and the target. */
const OPEN = `
local cur = redis.call('GET', KEYS[2])
if cur and cur ~= ARGV[1] and ARGV[3] ~= '1' then return 0 end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
redis.call('HSET', KEYS[1], 'owner', ARGV[1])
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], 'channel', ARGV[4], 'threadTs', ARGV[5])
end
redis.call('EXPIRE', KEYS[1], ARGV[6])
redis.call('ZADD', KEYS[3], ARGV[7], ARGV[8])
return 1`;

/** Renew the lease if ARGV[1]'s (KEYS: state, lease). */
const HOLDS = `${MINE}
if mine() then return 1 end
return 0`;

/** Store a header state if the lease is ours and it is not older than a final one: returns the seq, or 0. */
const STORE_HEADER = `${MINE}
if not mine() then return 0 end
if redis.call('HGET', KEYS[1], 'hfinal') == '1' and ARGV[4] ~= '1' then return 0 end
local seq = redis.call('HINCRBY', KEYS[1], 'hseq', 1)
redis.call('HSET', KEYS[1], 'hmsg', ARGV[3], 'hfinal', ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return seq`;

/** Mark header seq ARGV[1] applied unless a later one is. */
const HEADER_APPLIED = `
local cur = tonumber(redis.call('HGET', KEYS[1], 'happlied') or '0')
if tonumber(ARGV[1]) > cur then redis.call('HSET', KEYS[1], 'happlied', ARGV[1]) end
return 1`;

/** Delete the outbox when empty and settled (KEYS: stream, state, lease, outboxes; ARGV: token, job id). */
const FINISH = `
local settled = redis.call('XLEN', KEYS[1]) == 0
local s = redis.call('HMGET', KEYS[2], 'drops', 'announced', 'hseq', 'happlied')
if tonumber(s[1] or '0') > tonumber(s[2] or '0') then settled = false end
if tonumber(s[3] or '0') > tonumber(s[4] or '0') then settled = false end
if redis.call('GET', KEYS[3]) == ARGV[1] then redis.call('DEL', KEYS[3]) end
if not settled then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('ZREM', KEYS[4], ARGV[2])
return 1`;

/** The outbox of job `jobId` in Redis (see the module comment for the layout). */
export function redisThreadOutbox(
  redis: RedisClient,
  prefix: string,
  jobId: string,
  options: { leaseMs?: number } = {},
): ThreadOutbox {
  const base = `${prefix}:thread:outbox:${jobId}`;
  const keys = { stream: base, state: `${base}:state`, lease: `${base}:lease`, all: outboxesKey(prefix) };
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const token = randomUUID();

  async function readHeader(): Promise<StoredHeader | undefined> {
    return headerOf(await redis.hmget(keys.state, ...HEADER_FIELDS));
  }

  /** The stored header from the state hash's HEADER_FIELDS, in that order. */
  function headerOf([seq, msg, final, applied]: (string | null)[]): StoredHeader | undefined {
    if (!seq || !msg) return undefined;
    return {
      seq: Number(seq),
      message: JSON.parse(msg) as ChatMessage,
      final: final === '1',
      applied: Number(applied ?? 0) >= Number(seq),
    };
  }

  return {
    async open({ target, takeover }) {
      // The lease and what the outbox holds in one round trip (a job's start waits for it): read after OPEN in the
      // same transaction, and used only when the lease was taken.
      const replies =
        (await redis
          .multi()
          .eval(
            OPEN,
            3,
            keys.state,
            keys.lease,
            keys.all,
            token,
            leaseMs,
            takeover ? '1' : '0',
            target?.channel ?? '',
            target?.threadTs ?? '',
            OUTBOX_TTL_S,
            Date.now(),
            jobId,
          )
          .xrange(keys.stream, '-', '+')
          .hmget(keys.state, 'channel', 'threadTs', ...HEADER_FIELDS)
          .exec()) ?? [];
      for (const [err] of replies) if (err) throw err;
      if (replies[0]?.[1] !== 1) return undefined;
      const entries = (replies[1]?.[1] ?? []) as [string, string[]][];
      const [channel, threadTs, ...header] = (replies[2]?.[1] ?? []) as (string | null)[];
      return {
        target: channel && threadTs ? { channel, threadTs } : undefined,
        pending: entries.map(([id, fields]) => entryOf(id, fields)),
        header: headerOf(header),
      };
    },
    async append(lines) {
      if (lines.length === 0) return [];
      const multi = redis.multi();
      for (const l of lines) {
        multi.xadd(
          keys.stream,
          '*',
          'k',
          l.key,
          'm',
          JSON.stringify(l.message),
          'b',
          l.broadcast ? '1' : '0',
          'h',
          l.hookOutcome ? '1' : '0',
        );
      }
      multi.expire(keys.stream, OUTBOX_TTL_S).zadd(keys.all, Date.now(), jobId);
      const results = (await multi.exec()) ?? [];
      return results.slice(0, lines.length).map(([err, id]) => {
        if (err) throw err;
        return String(id);
      });
    },
    async holds() {
      return (await redis.eval(HOLDS, 2, keys.state, keys.lease, token, leaseMs)) === 1;
    },
    async delivered(ids) {
      if (ids.length > 0) await redis.xdel(keys.stream, ...ids);
    },
    async dropped(ids) {
      if (ids.length === 0) return;
      await redis
        .multi()
        .xdel(keys.stream, ...ids)
        .hincrby(keys.state, 'drops', ids.length)
        .expire(keys.state, OUTBOX_TTL_S)
        .exec();
    },
    async unannounced() {
      const [drops, announced] = await redis.hmget(keys.state, 'drops', 'announced');
      const total = Number(drops ?? 0);
      return { total, pending: Math.max(0, total - Number(announced ?? 0)) };
    },
    async announced(total) {
      await redis.hset(keys.state, 'announced', total);
    },
    async storeHeader(message, final) {
      const seq = await redis.eval(
        STORE_HEADER,
        2,
        keys.state,
        keys.lease,
        token,
        leaseMs,
        JSON.stringify(message),
        final ? '1' : '0',
        OUTBOX_TTL_S,
      );
      return Number(seq) > 0 ? Number(seq) : undefined;
    },
    header: readHeader,
    async headerApplied(seq) {
      await redis.eval(HEADER_APPLIED, 1, keys.state, seq);
    },
    async finish() {
      const closed = await redis.eval(FINISH, 4, keys.stream, keys.state, keys.lease, keys.all, token, jobId);
      return closed === 1;
    },
  };
}

/** Every job's outbox in Redis: the `outboxes` ZSET read by last write, and each job's outbox. */
export function redisThreadOutboxes(redis: RedisClient, prefix: string): ThreadOutboxes {
  return {
    idle: (before, limit) => redis.zrangebyscore(outboxesKey(prefix), 0, before, 'LIMIT', 0, limit),
    of: (jobId) => redisThreadOutbox(redis, prefix, jobId),
  };
}

/** The ZSET of open outboxes (job id → last write, ms). */
export function outboxesKey(prefix: string): string {
  return `${prefix}:thread:outboxes`;
}

function entryOf(id: string, fields: string[]): OutboxEntry {
  const f = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) f.set(fields[i]!, fields[i + 1]!);
  return {
    id,
    key: f.get('k') ?? '',
    message: JSON.parse(f.get('m') ?? '{"text":"","blocks":[]}') as ChatMessage,
    broadcast: f.get('b') === '1',
    hookOutcome: f.get('h') === '1',
  };
}
