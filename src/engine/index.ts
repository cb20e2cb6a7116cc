/** The engine's public surface. Other folders import from here only. */

export * from './cluster.js';
export * from './dependency-bubbling.js';
export * from './diff/index.js';
export * from './engine-options.js';
export * from './go-atoi.js';
export * from './health/index.js';
export * from './hook-name.js';
export * from './hooks/delete-policy.js';
export * from './hooks/helm.js';
export * from './hooks/hook.js';
export * from './kind-order.js';
export * from './object-annotations.js';
export * from './plan-warning.js';
export * from './pod-references.js';
export * from './prune-waves.js';
export * from './reference-lint.js';
export * from './run-operation.js';
export * from './selective-sync.js';
export * from './sort-sync-tasks.js';
export { syncOptionValueOf } from './sync-options.js';
export * from './sync-phases.js';
export * from './sync-task.js';
export * from './sync-tasks.js';
export * from './sync-waves.js';
export { listTrackedLiveObjects } from './tracked-objects.js';
export * from './unique-targets.js';
