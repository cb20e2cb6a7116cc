/**
 * The Lua scripts behind the per-application line (docs/queue.md). Each runs atomically in Redis, which is
 * what makes "only the head of the line runs" hold across any number of workers and processes.
 * Job hash fields: application, request, enqueuedAt, status, owner, startedAt, finishedAt, message, state,
 * wave, cancelledBy.
 */
import { luaScript } from '../store/lua-script.js';

const TERMINAL = `local function terminal(s) return s == 'completed' or s == 'failed' or s == 'cancelled' end\n`;

/**
 * The job's record hash and its place at the tail of the line (KEYS line, apps, job; ARGV jobId, application,
 * request JSON, enqueuedAt), for a job not registered yet.
 */
const REGISTER_NEW = `redis.call('HSET', KEYS[3], 'application', ARGV[2], 'request', ARGV[3], 'enqueuedAt', ARGV[4], 'status', 'waiting')
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[2], ARGV[2])`;

/** KEYS line, apps, job; ARGV jobId, application, request JSON, enqueuedAt → 1 registered, 0 known. */
export const REGISTER = luaScript(`
if redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
${REGISTER_NEW}
return 1`);

/**
 * The turn of a registered job, in Lua: `line`, `job` (keys), `id`, `owner`, `now` (arguments); each outcome goes
 * through `answer(kind, value)`, a Lua expression of the reply.
 */
function acquireLua(
  k: { line: string; job: string; id: string; owner: string; now: string },
  answer: (kind: string, value: string) => string,
): string {
  return `local status = redis.call('HGET', ${k.job}, 'status')
if terminal(status) then return ${answer("'finished'", 'status')} end
local head = redis.call('LINDEX', ${k.line}, 0)
if head ~= ${k.id} then return ${answer("'blocked'", "head or ''")} end
local previous = redis.call('HGET', ${k.job}, 'owner') or ''
redis.call('HSET', ${k.job}, 'status', 'active', 'owner', ${k.owner})
redis.call('HSETNX', ${k.job}, 'startedAt', ${k.now})
return ${answer("'acquired'", 'previous')}`;
}

/**
 * KEYS line, job; ARGV jobId, owner token, now → {'acquired', previous owner token or ''} | {'finished', status}
 * | {'blocked', headId} | {'unregistered'}. Only the head of the line may run; the owner token fences out a worker
 * that lost the job. The previous owner is the delivery that held the turn before (a resumed or retried job).
 */
export const ACQUIRE = luaScript(`${TERMINAL}
if not redis.call('HGET', KEYS[2], 'status') then return {'unregistered'} end
${acquireLua(
  { line: 'KEYS[1]', job: 'KEYS[2]', id: 'ARGV[1]', owner: 'ARGV[2]', now: 'ARGV[3]' },
  (kind, value) => `{${kind}, ${value}}`,
)}`);

/**
 * REGISTER then ACQUIRE in one round trip, answering the job's record as ACQUIRE left it: KEYS line, apps, job;
 * ARGV jobId, application, request JSON, enqueuedAt, owner token, now → ACQUIRE's reply (its two entries)
 * followed by the job hash's fields and values (HGETALL). What a picked job does first (sync-processor).
 */
export const REGISTER_AND_ACQUIRE = luaScript(`${TERMINAL}
if redis.call('EXISTS', KEYS[3]) == 0 then
${REGISTER_NEW}
end
local function withRecord(kind, value)
  local reply = {kind, value}
  for _, x in ipairs(redis.call('HGETALL', KEYS[3])) do table.insert(reply, x) end
  return reply
end
${acquireLua(
  { line: 'KEYS[1]', job: 'KEYS[3]', id: 'ARGV[1]', owner: 'ARGV[5]', now: 'ARGV[6]' },
  (kind, value) => `withRecord(${kind}, ${value})`,
)}`);

/**
 * KEYS line, job, history, cancel, history sequence; ARGV jobId, status, finishedAt, message, history JSON or '',
 * history limit, owner ('' = unchecked), retain seconds → {1|0|-1, new head or ''}
 * (1 finished now, 0 was already finished, -1 owned by another worker). The history entry gets the application's
 * next history id (INCR of the sequence, `"id":N` written first into the JSON object), once: a job finished again
 * (0) records nothing.
 */
export const FINISH = luaScript(`${TERMINAL}
local status = redis.call('HGET', KEYS[2], 'status')
if ARGV[7] ~= '' and redis.call('HGET', KEYS[2], 'owner') ~= ARGV[7] then return {-1, ''} end
redis.call('LREM', KEYS[1], 1, ARGV[1])
local head = redis.call('LINDEX', KEYS[1], 0) or ''
if status and terminal(status) then return {0, head} end
redis.call('HSET', KEYS[2], 'status', ARGV[2], 'finishedAt', ARGV[3], 'message', ARGV[4])
redis.call('HDEL', KEYS[2], 'owner')
redis.call('EXPIRE', KEYS[2], ARGV[8])
redis.call('DEL', KEYS[4])
if ARGV[5] ~= '' then
  local id = redis.call('INCR', KEYS[5])
  redis.call('LPUSH', KEYS[3], '{"id":' .. id .. ',' .. string.sub(ARGV[5], 2))
  redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[6]) - 1)
end
return {1, head}`);

/** KEYS job; ARGV owner, field, value, field, value, … → 1 written, 0 owned by another worker. */
export const UPDATE = luaScript(`
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return 1`);

/**
 * KEYS line, job, cancel; ARGV jobId, application, by JSON, now, channel, retain seconds, message
 * → {'none'} | {'running'} | {'waiting', new head or ''}. A waiting job leaves the line at once; a running one
 * gets a flag and a pub/sub message that its worker turns into an AbortSignal.
 */
export const CANCEL = luaScript(`${TERMINAL}
local status = redis.call('HGET', KEYS[2], 'status')
if not status or terminal(status) then return {'none'} end
if redis.call('HGET', KEYS[2], 'application') ~= ARGV[2] then return {'none'} end
if status == 'active' then
  redis.call('SET', KEYS[3], ARGV[3], 'EX', 86400)
  redis.call('PUBLISH', ARGV[5], ARGV[1])
  return {'running'}
end
redis.call('LREM', KEYS[1], 1, ARGV[1])
redis.call('HSET', KEYS[2], 'status', 'cancelled', 'finishedAt', ARGV[4], 'cancelledBy', ARGV[3], 'message', ARGV[7])
redis.call('HDEL', KEYS[2], 'owner')
redis.call('EXPIRE', KEYS[2], ARGV[6])
return {'waiting', redis.call('LINDEX', KEYS[1], 0) or ''}`);
