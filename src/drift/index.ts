/**
 * Drift detection: compare an Application with the cluster, drift episodes, the runtime that checks every
 * interval and the ports it codes against, the self-heal syncs it requests, its state in Redis, and the
 * `on-health-degraded` notices it sends.
 */

export { createDriftAutomationPolicy } from './automation-policy.js';
export { compareApplication, type ResourceDifference } from './compare-application.js';
export { type DegradedHealthNoticeDeps, noticeDegradedHealth } from './degraded-health-notices.js';
export {
  type DriftMetrics,
  type DriftNoticePort,
  type RunningDriftDetection,
  runDriftDetection,
} from './drift-runtime.js';
export { createLiveStateCaches } from './live-state-caches.js';
export {
  type DriftNoticeClaims,
  type DriftNoticeClicker,
  type DriftNoticeRefs,
  memoryDriftNoticeClaims,
  redisDriftChangeClaim,
  redisDriftLease,
  redisDriftNoticeClaims,
  redisDriftNoticeRefs,
  redisDriftStateStore,
} from './redis-drift-state-store.js';
export { SELF_HEAL_INITIATOR } from './self-heal.js';
export type { SelfHealAnnouncer } from './self-heal-sync.js';
