/**
 * The claims of one rollback per failure (rollback-claim.ts names them) in Redis under `<prefix>:rollback:click:<claim>`
 * (SET NX PX, value the first clicker as JSON, `prefix` = WAVESYNC_QUEUE_PREFIX), shared by every bot replica.
 */
import { type ClickClaims, type RedisClient, redisClickClaims } from '../queue/index.js';
import { ROLLBACK_CLAIM_TTL_MS } from './rollback-claim.js';

export function redisRollbackClaims(redis: RedisClient, prefix: string): ClickClaims {
  return redisClickClaims(redis, `${prefix}:rollback:click`, ROLLBACK_CLAIM_TTL_MS);
}
