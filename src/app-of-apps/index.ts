/**
 * App of Apps: the child Applications among a parent's sync tasks, the runtime that syncs them in turn (the
 * worker's JobLifecycle), the ports it codes against (announcer, chain store) and the chain store in Redis.
 */

export type { AppOfAppsSummary, ChildOutcome } from './app-of-apps.js';
export { childJobId, childRequestKey, createAppOfAppsDriver } from './app-of-apps-driver.js';
export type { AppOfAppsAnnouncer, RolloutAnnouncer, RolloutApprovals } from './app-of-apps-ports.js';
export { redisAppOfAppsChainStore } from './redis-chain-store.js';
export { createApplicationResolver } from './resolve-application.js';
export type { RolloutSummary } from './rollout.js';
export {
  createRolloutDriver,
  type RolloutDriver,
  rolloutJobId,
} from './rollout-driver.js';
