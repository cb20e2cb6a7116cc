/** Lua health scripts as Argo CD runs them: the VM, where scripts come from, and the engine's port over both. */

export { HEALTH_SCRIPT_BYTE_BUDGET } from './byte-budget.js';
export {
  ARGOCD_CM_REUSE_MS,
  type ConfigMapReader,
  clusterHealthOverrides,
  type ScriptedHealthSource,
  type ScriptedHealthSourceOptions,
  scriptedHealthForCluster,
  scriptedHealthSource,
} from './cluster-argocd-cm.js';
// The Lua pieces resource actions (src/resource-actions) run on.
export { fengari, type LuaState } from './fengari.js';
export {
  createHealthScriptCatalog,
  groupKindKey,
  type HealthOverride,
  type HealthScriptCatalog,
  type ScriptChoice,
} from './health-script-catalog.js';
export {
  createHealthScriptRunner,
  type HealthScriptRunner,
  type HealthScriptRunnerOptions,
  sharedHealthScriptRunner,
} from './health-script-runner.js';
export {
  createHealthScriptVm,
  HEALTH_SCRIPT_TIMEOUT_MS,
  type HealthScript,
  type HealthScriptVm,
  pushValue,
} from './run-health-script.js';
export { pushSafeOs } from './safe-os.js';
export { createScriptedHealth, type ScriptedHealthOptions } from './scripted-health.js';
export {
  type BuiltInScriptsGit,
  builtInScriptsDir,
  scriptedHealthFromSettings,
} from './scripted-health-from-settings.js';
