/** Argo CD's resource actions: discovery and action Lua scripts (and the Go built-ins), where they come from. */
export {
  createResourceActionCatalog,
  type ResourceActionCatalog,
  ResourceActionError,
} from './action-catalog.js';
export {
  ActionResultError,
  isJsonObject,
  type JsonObject,
  type ResourceAction,
} from './action-results.js';
export { resourceActionsFromSettings } from './actions-from-settings.js';
export { RESTARTED_AT_ANNOTATION } from './built-in-actions.js';
export {
  type EventLine,
  type LogsResult,
  MAX_TAIL,
} from './logs-and-events.js';
export type { Json } from './lua-json.js';

export {
  createResourceViews,
  type ResourceViewLine,
  type ResourceViews,
} from './resource-views.js';
export { ActionScriptError } from './run-action-script.js';
