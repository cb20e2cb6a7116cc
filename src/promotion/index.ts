/**
 * Promotion pipelines (docs/promotion.md): wavesync.yaml `promotion.pipelines` checked against the Applications,
 * the verification of each stage's syncs, `/sync promote`'s choice of what to promote, and the pins that hold a
 * promoted stage at its revision.
 */

export { createStageObserver, type StageObserverDeps } from './observe-stage.js';
export { pinnedRevision } from './pins.js';
export {
  assertPromotionPipelines,
  type Pipeline,
  pipelineNamed,
  pipelineProblems,
  pipelinesOf,
  resolvePipeline,
  type StageRef,
  stageOf,
} from './pipelines.js';
export {
  type PlanPromotionDeps,
  type PromoteAsk,
  type PromotionPlan,
  planPromotion,
} from './plan-promotion.js';
export { type PromotionLifecycleDeps, promotionLifecycle } from './promotion-lifecycle.js';
export { promotionKeys, redisPromotionStore, redisVerifierLease } from './redis-promotion-store.js';
export {
  formatDuration,
  type Pin,
  type PromotionStore,
  type StageSync,
  type StageSyncStatus,
  type VerifiedRevision,
  verificationText,
} from './stage-records.js';
export { type EndedStageSync, type StageObservation, stageObserved, stageSyncEnded } from './verification.js';
export { type RunningVerifier, startVerifier, type VerifierDeps } from './verifier.js';
