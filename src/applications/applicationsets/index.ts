/** ApplicationSets: parsing, generators, templates, and the Applications they generate. */
export {
  type ApplicationSetManifest,
  ApplicationSetSchema,
  UNREACHABLE_GENERATORS,
} from './applicationset-schema.js';
export {
  ApplicationSetError,
  type ApplicationSetInput,
  applicationSetOf,
  type GeneratedApplications,
  generateApplications,
  type RefusedGenerator,
} from './generate-applications.js';
export { generateFile } from './generate-file.js';
export type { GeneratorCluster, GitCheckouts } from './generators.js';
export { type ApplicationSetDocument, checkApplicationSet } from './parse-applicationset.js';
export { describeRollout, type RolloutPlan, type RolloutStep } from './rollout-steps.js';
