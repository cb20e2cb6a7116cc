/**
 * Lua scripts that change an approval request atomically (one compare-and-set each), so that two approvers
 * clicking at the same instant, a double click, or a click racing the expiry sweeper yield exactly one outcome.
 * KEYS[1] = request hash, KEYS[2] = expiry sorted set. Times are ms since epoch, given by the caller's clock.
 */
import { luaScript } from '../../queue/index.js';

/**
 * DECIDE(userId, decision, now, requestId); KEYS[3] = the to-enqueue sorted set (an approved request enters it at
 * `now` in the same step, and leaves it once its job or the reason it was not queued is recorded, so a bot that
 * dies in between leaves it for the sweeper); the count needed is the hash's `required` →
 * {'missing'} | {'decided', status} | {'expired'} | {'already-approved'} | {'rejected'} |
 * {'recorded', approvalsJson} | {'approved', approvalsJson}
 */
export const DECIDE = luaScript(`
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {'missing'} end
if status ~= 'pending' then return {'decided', status} end
local now = tonumber(ARGV[3])
if now >= tonumber(redis.call('HGET', KEYS[1], 'expiresAt')) then
  redis.call('HSET', KEYS[1], 'status', 'expired', 'decidedAt', ARGV[3])
  redis.call('ZREM', KEYS[2], ARGV[4])
  return {'expired'}
end
if ARGV[2] == 'reject' then
  redis.call('HSET', KEYS[1], 'status', 'rejected', 'decidedBy', ARGV[1], 'decidedAt', ARGV[3])
  redis.call('ZREM', KEYS[2], ARGV[4])
  return {'rejected'}
end
local approvals = cjson.decode(redis.call('HGET', KEYS[1], 'approvals'))
for _, a in ipairs(approvals) do
  if a[1] == ARGV[1] then return {'already-approved'} end
end
table.insert(approvals, {ARGV[1], now})
local json = cjson.encode(approvals)
redis.call('HSET', KEYS[1], 'approvals', json)
if #approvals >= tonumber(redis.call('HGET', KEYS[1], 'required')) then
  redis.call('HSET', KEYS[1], 'status', 'approved', 'decidedBy', ARGV[1], 'decidedAt', ARGV[3])
  redis.call('ZREM', KEYS[2], ARGV[4])
  redis.call('ZADD', KEYS[3], now, ARGV[4])
  return {'approved', json}
end
return {'recorded', json}
`);

/**
 * CLOSE(toStatus, now, requestId, note, onlyIfDue, decidedBy) → 1 when a pending request moved to `toStatus`, else
 * 0. With onlyIfDue = '1' it moves only a request whose expiry has passed (the sweeper's expire); a non-empty
 * decidedBy records who closed it (a withdrawal).
 */
export const CLOSE = luaScript(`
if redis.call('HGET', KEYS[1], 'status') ~= 'pending' then return 0 end
if ARGV[5] == '1' and tonumber(ARGV[2]) < tonumber(redis.call('HGET', KEYS[1], 'expiresAt')) then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'decidedAt', ARGV[2], 'note', ARGV[4])
if ARGV[6] and ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'decidedBy', ARGV[6]) end
redis.call('ZREM', KEYS[2], ARGV[3])
return 1
`);
