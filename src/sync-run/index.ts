/**
 * The run of a sync: the queue's SyncRunner over the engine — the Application resolved, its manifests rendered at
 * the operation's revision, the operation run against its destination's Cluster. A rollback's recorded source comes
 * from src/rollback, a deletion job runs in src/deletion; the composition root (src/main) and the CLI pass the
 * adapters in.
 */
export { createEngineSyncRunner } from './engine-sync-runner.js';
