/** Lua health scripts as Argo CD runs them: the VM, where scripts come from, and the engine's port over both. */

export {
  ARGOCD_CM_REUSE_MS,
  type ConfigMapReader,
  type ScriptedHealthSource,
  scriptedHealthForCluster,
  scriptedHealthSource,
} from './cluster-argocd-cm.js';
// The Lua pieces resource actions (src/resource-actions) run on.
export { fengari, type LuaState } from './fengari.js';
export {
  createHealthScriptCatalog,
  groupKindKey,
} from './health-script-catalog.js';
export { createHealthScriptRunner } from './health-script-runner.js';
export { pushValue } from './push-value.js';
export { createHealthScriptVm } from './run-health-script.js';
export { pushSafeOs } from './safe-os.js';
export { createScriptedHealth } from './scripted-health.js';
export {
  type BuiltInScriptsGit,
  builtInScriptsDir,
  scriptedHealthFromSettings,
} from './scripted-health-from-settings.js';
