/** wavesync.yaml: schema, loading, and lookups used by the application registry and the worker. */

export {
  type Action,
  type DestinationRule,
  EnvironmentSchema,
  type EnvironmentSettings,
  type FreezeWindow,
  type Grant,
  isRegexRule,
  type Principals,
  resourceActionNeedsApproval,
} from './environments-schema.js';
export { defaultSettings, loadSettings, parseSettings, resolveSettingsPath } from './load-settings.js';
export type { PipelineSettings, VerifySettings } from './promotion-schema.js';
export { resolveCluster } from './resolve-cluster.js';
export { parseResourceCustomizations } from './resource-customizations.js';
export type {
  ApplicationSourceEntry,
  GitCredential,
  HealthSettings,
  HelmCredential,
  PluginSettings,
  Settings,
  WebhookSettings,
} from './settings-schema.js';
export { describeIssues, formatKeyPath, lineOfPath } from './yaml-issues.js';
