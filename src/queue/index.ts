/** The queue layer's public surface: producer, worker, runner port and the types callers code against. */

export { type AppOfAppsChain, currentChild } from './app-of-apps-chain.js';
export { derivedJobId } from './derived-job-id.js';
export { combineLifecycles, type JobLifecycle } from './job-lifecycle.js';
export { isTransientError, TransientError } from './queue-errors.js';
export type { ResumedFrom } from './resumed-from.js';
export type { RolloutChain, RolloutChainStep } from './rollout-chain.js';
export { messageOf, reportStartFailure, TERMINATED } from './start-failure.js';
export { type ClickClaims, type Clicker, memoryClickClaims, redisClickClaims } from './store/click-claims.js';
export type { CommandJournal, JournalEntry } from './store/command-journal.js';
export {
  allDurable,
  alreadyDurable,
  type DurableWrites,
  NotReplicatedError,
  REPLICA_WAIT_MS,
  type ReplicaDurability,
  replicaDurabilityFor,
  replicatedWrites,
} from './store/durable-writes.js';
export { luaScript, runScript } from './store/lua-script.js';
export {
  clusterSafePrefix,
  createRedisClient,
  describeRedis,
  type RedisClient,
  type RedisConnectionOptions,
  type RedisNode,
} from './store/redis-connections.js';
export { SYNC_QUEUE_NAME } from './store/redis-keys.js';
export { memoryReplayStore, type ReplayStore, redisReplayStore } from './store/replay-store.js';
export { createSyncQueue, type SyncQueue } from './sync-queue.js';
export type {
  EnqueueOptions,
  EnqueueResult,
  HistoryEntry,
  JobAhead,
  JobStatus,
  SyncQueueClient,
} from './sync-queue-client.js';
export { fanOutReporter, type ReportTarget, type SyncReporter } from './sync-reporter.js';
export {
  type DeletionJob,
  deletionOperation,
  type PromotionRef,
  type QueuedDeletion,
  recordedOperation,
  type SyncJob,
  type SyncRequest,
} from './sync-request.js';
export { syncRetryLifecycle } from './sync-retry.js';
export type { RunnerLogger, SyncRunner, SyncRunnerContext } from './sync-runner.js';
export { createSyncWorker, type SyncWorker } from './sync-worker.js';
