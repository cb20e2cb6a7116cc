/** Manifest loading: files, directories and Kustomize sources to SourcedObjects. */

export * from '../render/render-kustomize.js';
export * from '../render/spawn-with-timeout.js';
export * from './content-revision.js';
export * from './load-manifests.js';
export * from './manifest-sources.js';
export * from './parse-manifests.js';
