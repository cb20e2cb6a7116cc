/**
 * Rolling back (`/sync rollback`, the Roll back button): which history entry a rollback returns to, the operation
 * that returns to it, which Applications can be rolled back, one rollback per failure (the claim), and how the
 * worker renders a rollback's recorded source. Slack parses and presents; the worker's runner (src/sync-run) renders; both ask this folder.
 */

export { redisRollbackClaims } from './redis-rollback-claims.js';
export { rollbackClaim } from './rollback-claim.js';
export {
  canRollBack,
  canRollBackApplication,
  rollbackOperation,
  rollbackRefusal,
  rollbackTargetOf,
  rollbackTargetOfFailure,
  rollbackWarnings,
  UNKNOWN_REVISION,
} from './rollback-operation.js';
export { promotionUndone, type RollbackChoice } from './rollback-target.js';
