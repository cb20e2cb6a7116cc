/** The Argo CD vocabulary, dependency-free. Every layer may import this module. */
export * from './annotations.js';
export * from './application.js';
export * from './errors.js';
export * from './health-status.js';
export { DNS1123_SUBDOMAIN, NAME_MESSAGES, type NameRule, nameProblems, nameRuleOf } from './object-name.js';
export * from './operation.js';
export * from './resource.js';
export * from './revision.js';
export * from './sync-event.js';
export * from './sync-phase.js';
