/**
 * Comparing objects: normalize, ignoreDifferences, mask Secrets, unified diff (pure; imports only the domain).
 * The whole-Application diff that plans and dry-runs is run/application-diff.ts.
 */
export { type FieldPath, formatFieldPath } from './field-path.js';
export * from './ignore-differences.js';
export { isSecret, maskSecretPair } from './mask-secrets.js';
export { normalizeForDiff } from './normalize-object.js';
export * from './resource-diff.js';
export { unifiedDiff } from './unified-diff.js';
