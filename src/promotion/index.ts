/**
 * Promotion pipelines (docs/promotion.md): wavesync.yaml `promotion.pipelines` checked against the Applications,
 * the verification of each stage's syncs, `/sync promote`'s choice of what to promote, and the pins that hold a
 * promoted stage at its revision.
 */

export { createStageObserver } from './observe-stage.js';
export { pinnedRevision } from './pins.js';
export {
  assertPromotionPipelines,
  type Pipeline,
  resolvePipeline,
} from './pipelines.js';
export {
  type PromoteAsk,
  planPromotion,
} from './plan-promotion.js';
export { promotionLifecycle } from './promotion-lifecycle.js';
export { promotionKeys, redisPromotionStore, redisVerifierLease } from './redis-promotion-store.js';
export {
  formatDuration,
  type Pin,
  type PromotionStore,
  type StageSync,
  type VerifiedRevision,
} from './stage-records.js';
export type { StageObservation } from './verification.js';
export { type RunningVerifier, startVerifier } from './verifier.js';
