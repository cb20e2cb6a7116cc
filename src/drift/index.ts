/**
 * Drift detection: compare an Application with the cluster, drift episodes, the runtime that checks every
 * interval and the ports it codes against, the self-heal syncs it requests, its state in Redis, and the
 * `on-health-degraded` notices it sends.
 */

export * from './automation-policy.js';
export * from './compare-application.js';
export * from './degraded-health-notices.js';
export * from './drift-detector.js';
export * from './drift-episodes.js';
export * from './drift-runtime.js';
export * from './redis-drift-state-store.js';
export * from './self-heal.js';
export * from './self-heal-sync.js';
