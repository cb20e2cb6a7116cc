/** Applications as Argo CD manifests: parsing, the registry, git sources and rendering. */
export * from './application-environment.js';
export * from './application-registry.js';
export * from './closest-names.js';
export * from './git/git-credentials.js';
export * from './git/git-repository-cache.js';
export * from './git/resolve-revision.js';
export * from './load-application-sources.js';
export * from './parse-applications.js';
