/** Manifest loading: files and directories to SourcedObjects with file:line (Kustomize renders: ../render/). */

export * from './content-revision.js';
export * from './load-manifests.js';
export * from './manifest-limits.js';
export * from './manifest-sources.js';
export * from './parse-manifests.js';
