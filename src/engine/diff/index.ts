/** The diff engine: what a sync would change, per resource (see application-diff.ts). */
export * from './application-diff.js';
export { type FieldPath, formatFieldPath } from './field-path.js';
export * from './ignore-differences.js';
export { isSecret, maskSecretPair } from './mask-secrets.js';
export { normalizeForDiff } from './normalize-object.js';
export * from './resource-diff.js';
export { unifiedDiff } from './unified-diff.js';
