/** Manifest loading: files, directories and Kustomize sources to SourcedObjects. */
export * from './content-revision.js';
export * from './load-manifests.js';
export * from './manifest-sources.js';
export * from './parse-manifests.js';
export * from './render-kustomize.js';
export * from './spawn-with-timeout.js';
