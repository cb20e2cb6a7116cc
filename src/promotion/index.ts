/**
 * Promotion pipelines (docs/promotion.md): wavesync.yaml `promotion.pipelines` checked against the Applications,
 * the verification of each stage's syncs, `/sync promote`'s choice of what to promote, and the pins that hold a
 * promoted stage at its revision.
 */
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
