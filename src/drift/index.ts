/** Drift detection: compare an Application with the cluster, drift episodes and their state in Redis. */

export * from './compare-application.js';
export * from './drift-detector.js';
export * from './drift-episodes.js';
export * from './redis-drift-state-store.js';
export * from './self-heal.js';
