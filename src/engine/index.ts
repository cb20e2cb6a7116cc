/** The engine's public surface. Other folders import from here only. */

export { closestNames, didYouMean } from './closest-names.js';
export {
  ACTION_FIELD_MANAGER,
  type ApplyOptions,
  type Cluster,
  ClusterError,
  type ClusterWatch,
  FIELD_MANAGER,
  isConflict,
  isNotFound,
  type ObjectChange,
  type ObjectRef,
  refOf,
  type WatchOptions,
  type WatchTarget,
  type WriteOptions,
} from './cluster.js';
export {
  type DiffAction,
  type IgnoreDifferencesRule,
  ignoreDifferencesOf,
  isSecretDiff,
  parseIgnoreDifferences,
  type ResourceDiff,
  withoutIgnored,
} from './diff/index.js';
export type { EngineOptions, ScriptedHealth } from './engine-options.js';
export { getResourceHealth } from './health/index.js';
export { hasDeletePolicy } from './hooks/delete-policy.js';
export { hookTraitsOf, isHook } from './hooks/hook.js';
export { annotationCsvOf } from './object-annotations.js';
export { clusterScopedIn } from './plan/cluster-scoped-kinds.js';
export { lateReferencesWork } from './plan/reference-lint.js';
export { syncOptionProblem } from './plan/sync-option-names.js';
export { type BuildSyncTasksResult, buildSyncTasks, buildSyncTasksSliced } from './plan/sync-tasks.js';
export { syncWaveOf } from './plan/sync-waves.js';
export { assertUniqueTargets, uniqueTargetSteps } from './plan/unique-targets.js';
export type { PlanWarning } from './plan-warning.js';
export {
  type ApplicationDiff,
  computeApplicationDiff,
  type DiffCounts,
  formatDiffCounts,
  hasChanges,
} from './run/application-diff.js';
export { type RunOperationInput, runOperation } from './run/run-operation.js';
export { syncOptionValueOf } from './sync-options.js';
export { isPruneTask, type SourcedObject, type SyncTask } from './sync-task.js';
export {
  AbortedError,
  ITEMS_PER_YIELD,
  runAtOnce,
  type SlicedWork,
  TimeSlice,
} from './time-slice.js';
export {
  isTrackedBy,
  listTrackedLiveObjects,
  trackedKinds,
  trackingOwnerOf,
  withTracking,
} from './tracked-objects.js';
export { Wakeup } from './wakeup.js';
