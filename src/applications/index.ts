/** Applications as Argo CD manifests: parsing, the registry, git sources and rendering. */

export { closestNames } from '../engine/index.js';
export * from './application-environment.js';
export * from './application-registry.js';
export * from './application-warnings.js';
export * from './applications-from-settings.js';
export * from './git/git-credentials.js';
export * from './git/git-repository-cache.js';
export * from './git/resolve-revision.js';
export * from './load-application-sources.js';
export { contentRevisionOf, type LoadedManifests, loadManifests } from './manifests/index.js';
export * from './notification-subscriptions.js';
export * from './parse-applications.js';
export * from './registry-refresh.js';
export * from './render/argo-glob.js';
export * from './render/kustomize-options.js';
export * from './render/render-application.js';
export * from './render/render-helm.js';
export * from './render/source-type.js';
export * from './rendered-resources.js';
