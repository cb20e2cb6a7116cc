export { ENVIRONMENT_LABEL, environmentOf } from './application-environment.js';
export type { ApplicationRegistry, RemovedGeneratedApplication } from './application-registry.js';
export { applicationWarnings } from './application-warnings.js';
export {
  type ApplicationsFromSettings,
  applicationsFromSettings,
  gitRepositoryCacheFor,
} from './applications-from-settings.js';
export {
  describeRollout,
  generateFile as generateApplicationSetFile,
} from './applicationsets/index.js';
export { removalDecision } from './applicationsets/removal-policy.js';
export type { CommitSummary, GitRepositoryCache } from './git/git-repository-cache.js';
export { resolveRef } from './git/resolve-revision.js';

export {
  contentRevisionOf,
  loadManifests,
  manifestSourcesOf,
  parseManifests,
  parseManifestsEach,
} from './manifests/index.js';
export {
  type NotificationTrigger,
  parseEnvironmentSubscriptions,
  parseSubscriptionAnnotations,
  type Subscriptions,
  subscribedChannels,
} from './notification-subscriptions.js';
export { applicationFromObject, parseApplicationFile } from './parse-applications.js';
export { createRegistryRefresher, type RegistryRefresher } from './registry-refresh.js';
export type { ApplicationRenderer, RenderedApplication } from './render/render-application.js';
export { pluginNameOf, undeclaredPlugins } from './render/render-plugin.js';
export { renderedResourcesOf } from './rendered-resources.js';
