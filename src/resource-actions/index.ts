/** Argo CD's resource actions: discovery and action Lua scripts (and the Go built-ins), where they come from. */
export {
  type ActionsOverride,
  createResourceActionCatalog,
  objectLabel,
  type ResourceActionCatalog,
  type ResourceActionCatalogOptions,
  ResourceActionError,
} from './action-catalog.js';
export {
  type ActionOperation,
  ActionResultError,
  type ImpactedResource,
  isJsonObject,
  type JsonObject,
  type ResourceAction,
  type ResourceActionParam,
} from './action-results.js';
export { resourceActionsFromSettings } from './actions-from-settings.js';
export { RESTARTED_AT_ANNOTATION } from './built-in-actions.js';
export {
  DEFAULT_TAIL,
  type EventLine,
  type LogOptions,
  type LogsResult,
  MAX_LOG_BYTES,
  MAX_TAIL,
  type PodLog,
  redact,
  secretValues,
} from './logs-and-events.js';
export type { Json } from './lua-json.js';
export { buildResourceTree, kindSlashName, type ResourceLine } from './resource-tree.js';
export {
  type ActionOutcome,
  type ActionRequest,
  changedFields,
  createResourceViews,
  type FailingPodLog,
  type ResourceViewLine,
  type ResourceViews,
  type ResourceViewsDeps,
} from './resource-views.js';
export { ACTION_SCRIPT_TIMEOUT_MS, ActionScriptError, runActionScript } from './run-action-script.js';
