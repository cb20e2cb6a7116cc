/** ApplicationSets: parsing, generators, templates, and the Applications they generate. */

export { generateFile } from './generate-file.js';

export { describeRollout } from './rollout-steps.js';
