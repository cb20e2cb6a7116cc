/**
 * Comparing objects: normalize, ignoreDifferences, mask Secrets, unified diff (pure; imports only the domain).
 * The whole-Application diff that plans and dry-runs is run/application-diff.ts.
 */

export * from './ignore-differences.js';

export * from './resource-diff.js';
